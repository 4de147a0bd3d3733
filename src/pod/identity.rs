//! Who a container runs as, decided on numbers. The image's USER (`user[:group]`) is read as
//! containerd reads it (`getUserFromImage`: `strconv.ParseInt(part, 10, 64)`, so `00`, `+0` and
//! `-0` are all 0, and anything else is a name), and the kubelet's runAsNonRoot rule
//! (`verifyRunAsNonRoot`) is applied to those numbers: no spelling of 0 passes for another
//! user, an id outside the API's 0..=2147483647 is refused, and a name cannot be verified.
//! Where the image decides, the engine is handed the numbers checked here, never the image's
//! spelling, so Docker, Podman and a CRI runtime all run the user that was checked.

/// The largest user or group id Kubernetes takes (`IsValidUserID`, `IsValidGroupID`: int32).
pub const MAX_ID: i64 = i32::MAX as i64;

/// One part of an image's USER, read as containerd reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Id {
    /// A base-10 number with an optional sign, whatever its spelling; not yet checked against
    /// [`MAX_ID`].
    Number(i64),
    /// Digits past 64 bits: a number out of every range (containerd's ParseInt fails on it
    /// and calls it a name, which the kubelet refuses as well).
    TooLarge(String),
    /// Anything else: a name the engine looks up in the image's /etc/passwd or /etc/group.
    Name(String),
}

impl Id {
    /// Go's `strconv.ParseInt(s, 10, 64)`: an optional `+` or `-`, then one or more ASCII
    /// digits (no `_` in base 10), which is also what Rust's `i64::from_str` takes.
    pub fn parse(s: &str) -> Id {
        match s.parse::<i64>() {
            Ok(n) => Id::Number(n),
            Err(e) if matches!(e.kind(), std::num::IntErrorKind::PosOverflow | std::num::IntErrorKind::NegOverflow) => {
                Id::TooLarge(s.to_owned())
            }
            Err(_) => Id::Name(s.to_owned()),
        }
    }

    /// The number, when it is one Kubernetes takes; else the part as written, escaped (it
    /// comes from the image and is printed).
    fn in_range(&self) -> Result<Option<i64>, String> {
        match self {
            Id::Number(n) if (0..=MAX_ID).contains(n) => Ok(Some(*n)),
            Id::Number(n) => Err(n.to_string()),
            Id::TooLarge(s) => Err(s.escape_debug().to_string()),
            Id::Name(_) => Ok(None),
        }
    }

    /// How the engine is told it: the number in its one spelling, or the name.
    fn engine_text(&self) -> String {
        match self {
            Id::Number(n) => n.to_string(),
            Id::TooLarge(s) | Id::Name(s) => s.clone(),
        }
    }
}

/// An image's USER, `user[:group]`. No user (an empty USER, or one that starts with `:`) is
/// root, as the kubelet takes an image that names none. A CRI runtime tells the user alone
/// (`ImageStatus` has no group): then the engine is handed the uid alone, as the kubelet hands
/// it (`RunAsUser`), and the image's group is not applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageUser {
    pub user: Option<Id>,
    pub group: Option<Id>,
}

impl ImageUser {
    pub fn parse(s: &str) -> ImageUser {
        let (user, group) = s.split_once(':').map_or((s, None), |(u, g)| (u, Some(g)));
        ImageUser { user: Some(user).filter(|u| !u.is_empty()).map(Id::parse), group: group.map(Id::parse) }
    }
}

/// The pod's runAsUser and runAsGroup for one container (container over pod), which API
/// validation already holds to 0..=[`MAX_ID`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunAs {
    pub user: Option<i64>,
    pub group: Option<i64>,
}

impl RunAs {
    /// Whether the image's USER has a say: no runAsUser, and either runAsNonRoot (checked
    /// against it) or a runAsGroup (which keeps the image's user).
    pub fn needs_image(self, non_root: bool) -> bool {
        self.user.is_none() && (non_root || self.group.is_some())
    }
}

/// Why a container may not run as the user it would: the kubelet's words where it has them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdentityError {
    #[error("container's runAsUser breaks non-root policy")]
    RunAsUserRoot,
    #[error("container has runAsNonRoot and image will run as root")]
    Root,
    /// The name, escaped.
    #[error("container has runAsNonRoot and image has non-numeric user ({0}), cannot verify user is non-root")]
    NonNumeric(String),
    #[error("image has an invalid user id ({0}): must be between 0 and 2147483647, inclusive")]
    InvalidUser(String),
    #[error("image has an invalid group id ({0}): must be between 0 and 2147483647, inclusive")]
    InvalidGroup(String),
}

/// The user the engine runs the container as (`uid`, `uid:gid`, or a name where the image
/// gives one and nothing asks for a check), or None where the image's USER is left to the
/// engine; or why it may not run. `image` is read only where [`RunAs::needs_image`] says so.
pub fn decide(run_as: RunAs, non_root: bool, image: Option<&ImageUser>) -> Result<Option<String>, IdentityError> {
    if let Some(uid) = run_as.user {
        if non_root && uid == 0 {
            return Err(IdentityError::RunAsUserRoot);
        }
        return Ok(Some(match run_as.group {
            Some(gid) => format!("{uid}:{gid}"),
            None => uid.to_string(),
        }));
    }
    if !run_as.needs_image(non_root) {
        // The image's own USER, unread: the engine applies it.
        return Ok(None);
    }
    // An image not read counts as one that names no user: root.
    let image = image.unwrap_or(&ImageUser { user: None, group: None });
    let user = match &image.user {
        None => None,
        Some(id) => match id.in_range().map_err(IdentityError::InvalidUser)? {
            Some(n) => Some(Id::Number(n)),
            None => Some(id.clone()),
        },
    };
    if non_root {
        match &user {
            None | Some(Id::Number(0)) => return Err(IdentityError::Root),
            Some(Id::Name(name)) => return Err(IdentityError::NonNumeric(name.escape_debug().to_string())),
            Some(_) => {}
        }
    }
    let uid = user.as_ref().map_or_else(|| "0".to_owned(), Id::engine_text);
    let group = match (run_as.group, &image.group) {
        (Some(gid), _) => Some(gid.to_string()),
        (None, Some(id)) => {
            id.in_range().map_err(IdentityError::InvalidGroup)?;
            Some(id.engine_text())
        }
        (None, None) => None,
    };
    Ok(Some(match group {
        Some(g) if !g.is_empty() => format!("{uid}:{g}"),
        _ => uid,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image(s: &str) -> ImageUser {
        ImageUser::parse(s)
    }

    fn non_root(user: &str) -> Result<Option<String>, IdentityError> {
        decide(RunAs::default(), true, Some(&image(user)))
    }

    #[test]
    fn parts_are_read_as_containerd_reads_them() {
        for zero in ["0", "00", "+0", "-0", "0000"] {
            assert_eq!(Id::parse(zero), Id::Number(0), "{zero}");
        }
        assert_eq!(Id::parse("1000"), Id::Number(1000));
        assert_eq!(Id::parse("-1"), Id::Number(-1));
        assert_eq!(Id::parse("99999999999999999999"), Id::TooLarge("99999999999999999999".into()));
        assert_eq!(Id::parse("-99999999999999999999"), Id::TooLarge("-99999999999999999999".into()));
        for name in ["root", "nobody", "1_000", "+-1", "+", "0x10", " 0", "0 ", "1e3", "٣"] {
            assert_eq!(Id::parse(name), Id::Name(name.into()), "{name:?}");
        }
        assert_eq!(image(""), ImageUser { user: None, group: None });
        assert_eq!(image(":5"), ImageUser { user: None, group: Some(Id::Number(5)) });
        assert_eq!(image("0000:1000"), ImageUser { user: Some(Id::Number(0)), group: Some(Id::Number(1000)) });
    }

    #[test]
    fn every_spelling_of_0_is_root() {
        for user in ["", "0", "00", "+0", "-0", "0000:1000", "+0:+0", ":1000"] {
            assert_eq!(non_root(user), Err(IdentityError::Root), "{user:?}");
        }
    }

    #[test]
    fn ids_past_int32_are_refused_and_names_cannot_be_verified() {
        for user in ["2147483648", "4294967296", "99999999999", "-1", "99999999999999999999"] {
            assert!(matches!(non_root(user), Err(IdentityError::InvalidUser(_))), "{user}");
        }
        assert_eq!(non_root("root"), Err(IdentityError::NonNumeric("root".into())));
        assert_eq!(non_root("nobody:1000"), Err(IdentityError::NonNumeric("nobody".into())));
        assert_eq!(non_root("a\u{1b}[31m"), Err(IdentityError::NonNumeric("a\\u{1b}[31m".into())), "escaped");
        assert!(matches!(non_root("1000:-1"), Err(IdentityError::InvalidGroup(_))));
        assert!(matches!(non_root("1000:4294967296"), Err(IdentityError::InvalidGroup(_))));
    }

    #[test]
    fn the_engine_is_handed_the_numbers_checked() {
        assert_eq!(non_root("2147483647"), Ok(Some("2147483647".into())));
        assert_eq!(non_root("+01000"), Ok(Some("1000".into())));
        assert_eq!(non_root("01000:+02000"), Ok(Some("1000:2000".into())));
        assert_eq!(non_root("1000:staff"), Ok(Some("1000:staff".into())), "a group name is the engine's to look up");
        assert_eq!(non_root("1000:"), Ok(Some("1000".into())));
    }

    #[test]
    fn run_as_user_wins_over_the_image() {
        let run_as = RunAs { user: Some(1000), group: None };
        assert_eq!(decide(run_as, true, None), Ok(Some("1000".into())));
        let run_as = RunAs { user: Some(1000), group: Some(0) };
        assert_eq!(decide(run_as, true, Some(&image("0"))), Ok(Some("1000:0".into())), "gid 0 is no root");
        let run_as = RunAs { user: Some(0), group: None };
        assert_eq!(decide(run_as, true, None), Err(IdentityError::RunAsUserRoot));
        assert_eq!(decide(run_as, false, None), Ok(Some("0".into())));
    }

    #[test]
    fn a_group_alone_keeps_the_image_user() {
        let run_as = RunAs { user: None, group: Some(5) };
        assert!(run_as.needs_image(false));
        assert_eq!(decide(run_as, false, Some(&image("00:7"))), Ok(Some("0:5".into())));
        assert_eq!(decide(run_as, false, Some(&image(""))), Ok(Some("0:5".into())));
        assert_eq!(decide(run_as, false, Some(&image("nobody"))), Ok(Some("nobody:5".into())));
        assert_eq!(decide(run_as, true, Some(&image("+1000"))), Ok(Some("1000:5".into())));
        assert!(matches!(decide(run_as, false, Some(&image("4294967296"))), Err(IdentityError::InvalidUser(_))));
    }

    #[test]
    fn without_a_check_the_image_is_not_read() {
        assert!(!RunAs::default().needs_image(false));
        assert_eq!(decide(RunAs::default(), false, Some(&image("0"))), Ok(None));
        assert_eq!(decide(RunAs::default(), false, None), Ok(None));
    }
}
