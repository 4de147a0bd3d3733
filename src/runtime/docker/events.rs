//! The engine's container events, as ticks that say "look again".

use std::collections::HashMap;

use bollard::query_parameters::EventsOptionsBuilder;
use futures_util::stream::BoxStream;
use futures_util::StreamExt;

use super::DockerRuntime;
use crate::runtime::Selector;

pub(super) fn changes(rt: &DockerRuntime, sel: &Selector) -> BoxStream<'static, ()> {
    // The actions are picked here rather than by an `event` filter: Podman names a removal
    // `remove` (Docker: `destroy`), and matches an `event=die` filter against its own name
    // for it (`died`) although it reports `die`, so that filter would drop every exit.
    const ACTIONS: [&str; 6] = ["create", "start", "die", "destroy", "remove", "oom"];
    let filters: HashMap<String, Vec<String>> =
        HashMap::from([("type".to_owned(), vec!["container".to_owned()]), ("label".to_owned(), sel.label_filters())]);
    let opts = EventsOptionsBuilder::default().filters(&filters).build();
    let mut events = rt
        .docker
        .events(Some(opts))
        .take_while(|e| std::future::ready(e.is_ok()))
        .filter_map(|e| {
            let wanted = e.ok().and_then(|e| e.action).is_some_and(|a| ACTIONS.contains(&a.as_str()));
            std::future::ready(wanted.then_some(()))
        })
        .boxed();
    // The request goes out when the stream is first polled, and the driver first polls it
    // only when it waits, after its first look and actions: an exit in between would be
    // missed until the next poll. A task polls it at once instead, and hands on ticks (one
    // pending tick says all there is to say). It ends with the stream or with the reader.
    let (tx, rx) = tokio::sync::mpsc::channel::<()>(1);
    tokio::spawn(async move {
        loop {
            tokio::select! {
                ev = events.next() => match ev {
                    Some(()) => {
                        if let Err(tokio::sync::mpsc::error::TrySendError::Closed(())) = tx.try_send(()) {
                            return;
                        }
                    }
                    None => return,
                },
                () = tx.closed() => return,
            }
        }
    });
    futures_util::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|()| ((), rx)) }).boxed()
}
