//! podrun's pause program: PID 1 of a pod's infra container.
//!
//! The infra container only holds the pod's namespaces open; this program keeps it alive, reaps
//! the zombies that other containers sharing its PID namespace leave behind (orphans are
//! re-parented to PID 1), and exits 0 at once on SIGTERM or SIGINT so that stopping the pod is
//! immediate rather than waiting out the engine's stop timeout.
//!
//! It is built by podrun's build.rs with `$RUSTC` alone (no cargo, no crates, no libc) into a
//! static binary of a few KiB, which podrun imports as a one-file image: no registry needed.
//! Hence `no_std`, our own `_start`, and raw Linux system calls.
//!
//! Why block-and-wait instead of signal handlers: the kernel drops signals sent to a PID
//! namespace's init unless it has a handler, *except* blocked ones, which stay pending. Blocking
//! the signals we care about and collecting them with `rt_sigtimedwait` gets them delivered
//! without any handler, stack switching or async-signal-safety concerns.
//!
//! Signals left unblocked (SIGHUP, SIGQUIT, ...) are dropped by the kernel while we are a
//! namespace's init, as with Kubernetes' own pause; only SIGKILL from outside can stop us then.
//!
//! `pause -v` prints a version line and exits 0.

#![no_std]
#![no_main]

use core::arch::{asm, global_asm};
use core::panic::PanicInfo;
use core::ptr;

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
compile_error!("podrun's pause program supports only x86_64 and aarch64 Linux");

/// System call numbers (they differ per architecture; aarch64 uses the generic table).
#[cfg(target_arch = "x86_64")]
mod nr {
    pub const WRITE: usize = 1;
    pub const RT_SIGPROCMASK: usize = 14;
    pub const WAIT4: usize = 61;
    pub const RT_SIGTIMEDWAIT: usize = 128;
    pub const EXIT_GROUP: usize = 231;
}
#[cfg(target_arch = "aarch64")]
mod nr {
    pub const WRITE: usize = 64;
    pub const RT_SIGPROCMASK: usize = 135;
    pub const WAIT4: usize = 260;
    pub const RT_SIGTIMEDWAIT: usize = 137;
    pub const EXIT_GROUP: usize = 94;
}

// Signal numbers are the same on x86_64 and aarch64.
const SIGINT: isize = 2;
const SIGTERM: isize = 15;
const SIGCHLD: isize = 17;

const SIG_BLOCK: usize = 0;
const WNOHANG: usize = 1;
/// wait4's pid argument -1 ("any child"), as the register holds it.
const ANY_CHILD: usize = usize::MAX;
/// The kernel's sigset_t is 64 bits; rt_sig* calls insist on being told so.
const SIGSET_SIZE: usize = 8;

/// Taken from the environment of the build script that compiles us (cargo sets it there);
/// a hand-built binary says "dev".
const VERSION: &str = match option_env!("CARGO_PKG_VERSION") {
    Some(v) => v,
    None => "dev",
};

/// Raw system call with up to four arguments; returns the kernel's value (-errno on failure).
///
/// # Safety
/// The arguments must be valid for the call `n` (pointers to live memory of the right size).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn syscall4(n: usize, a1: usize, a2: usize, a3: usize, a4: usize) -> isize {
    let ret: isize;
    // SAFETY: the caller vouches for the arguments; `syscall` clobbers rcx and r11 only.
    unsafe {
        asm!(
            "syscall",
            inlateout("rax") n as isize => ret,
            in("rdi") a1,
            in("rsi") a2,
            in("rdx") a3,
            in("r10") a4,
            lateout("rcx") _,
            lateout("r11") _,
            options(nostack),
        );
    }
    ret
}

/// Raw system call with up to four arguments; returns the kernel's value (-errno on failure).
///
/// # Safety
/// The arguments must be valid for the call `n` (pointers to live memory of the right size).
#[cfg(target_arch = "aarch64")]
#[inline(always)]
unsafe fn syscall4(n: usize, a1: usize, a2: usize, a3: usize, a4: usize) -> isize {
    let ret: isize;
    // SAFETY: the caller vouches for the arguments; `svc 0` clobbers nothing but x0.
    unsafe {
        asm!(
            "svc 0",
            inlateout("x0") a1 as isize => ret,
            in("x1") a2,
            in("x2") a3,
            in("x3") a4,
            in("x8") n,
            options(nostack),
        );
    }
    ret
}

fn exit(code: usize) -> ! {
    loop {
        // SAFETY: exit_group takes no pointers. It does not return; the loop only convinces the
        // type checker.
        unsafe { syscall4(nr::EXIT_GROUP, code, 0, 0, 0) };
    }
}

fn write_stdout(s: &str) {
    // SAFETY: the buffer is a live &str of the given length. A failed write (say, stdout
    // closed) is of no consequence for a version line.
    unsafe { syscall4(nr::WRITE, 1, s.as_ptr() as usize, s.len(), 0) };
}

/// Reaps every child that has already exited; SIGCHLDs coalesce, so one signal may stand for
/// many zombies. Stops at 0 (children left, none exited) or an error (ECHILD: no children).
fn reap_zombies() {
    loop {
        // SAFETY: a null status and rusage are allowed and mean "don't report".
        let pid = unsafe { syscall4(nr::WAIT4, ANY_CHILD, 0, WNOHANG, 0) };
        if pid <= 0 {
            return;
        }
    }
}

/// Whether the NUL-terminated string `arg` is exactly "-v". Compares through the raw pointer
/// byte by byte, stopping at the NUL, so no slicing (and no bounds-check panic) is involved.
///
/// # Safety
/// `arg` must be null or point at a NUL-terminated string.
unsafe fn is_version_flag(arg: *const u8) -> bool {
    if arg.is_null() {
        return false;
    }
    // SAFETY: each read stops at the first mismatch, so we never read past the terminator.
    unsafe { *arg == b'-' && *arg.add(1) == b'v' && *arg.add(2) == 0 }
}

/// The Rust entry point, called by `_start` with the initial stack pointer, where the kernel
/// laid out argc followed by the argv pointers.
///
/// # Safety
/// `sp` must be the process's initial stack pointer as set by execve.
unsafe extern "C" fn pause_main(sp: *const usize) -> ! {
    // SAFETY: per the ELF process start-up ABI, argc is at sp and argv[0..argc] follow it.
    let (argc, argv) = unsafe { (*sp, sp.add(1).cast::<*const u8>()) };
    // SAFETY: argv[1] exists when argc >= 2 and is NUL-terminated.
    if argc >= 2 && unsafe { is_version_flag(*argv.add(1)) } {
        write_stdout("podrun-pause ");
        write_stdout(VERSION);
        write_stdout("\n");
        exit(0);
    }

    let set: u64 = (1 << (SIGINT - 1)) | (1 << (SIGTERM - 1)) | (1 << (SIGCHLD - 1));
    let set_ptr = ptr::addr_of!(set) as usize;
    // SAFETY: `set` is a live 8-byte sigset; the old-set pointer is null (not wanted).
    if unsafe { syscall4(nr::RT_SIGPROCMASK, SIG_BLOCK, set_ptr, 0, SIGSET_SIZE) } < 0 {
        exit(1);
    }
    loop {
        // SAFETY: `set` is live; null siginfo (not wanted) and null timeout (wait forever).
        match unsafe { syscall4(nr::RT_SIGTIMEDWAIT, set_ptr, 0, 0, SIGSET_SIZE) } {
            SIGCHLD => reap_zombies(),
            SIGTERM | SIGINT => exit(0),
            // -EINTR (e.g. after a SIGSTOP/SIGCONT or a ptrace attach): just wait again.
            _ => {}
        }
    }
}

// The kernel enters `_start` with the stack pointer at argc and no return address. We hand that
// pointer to Rust and, on x86_64, realign the stack to 16 bytes before the call as the ABI
// expects (the call then pushes the return address, as at any function entry). The frame
// pointer is zeroed to end stack walks; the trap after the call is unreachable.
#[cfg(target_arch = "x86_64")]
global_asm!(
    ".globl _start",
    ".type _start,@function",
    "_start:",
    "xor ebp, ebp",
    "mov rdi, rsp",
    "and rsp, -16",
    "call {main}",
    "ud2",
    main = sym pause_main,
);

#[cfg(target_arch = "aarch64")]
global_asm!(
    ".globl _start",
    ".type _start,%function",
    "_start:",
    "mov x29, xzr",
    "mov x30, xzr",
    "mov x0, sp",
    "bl {main}",
    "brk #0",
    main = sym pause_main,
);

/// Nothing here should panic; if something does, exit with a code that tells it apart from a
/// clean stop (0) and a failed set-up (1). There is nothing to unwind and no one to print to.
#[panic_handler]
fn panic(_: &PanicInfo) -> ! {
    exit(2)
}

/// Never called: with `panic=abort` nothing unwinds. The prebuilt `core` is compiled for
/// unwinding, though, and its objects name this symbol; at opt-level z none of them gets linked,
/// but without optimisation (or after a change that pulls some in) the link would fail on an
/// undefined `rust_eh_personality`. An empty stand-in keeps the build independent of that.
#[no_mangle]
extern "C" fn rust_eh_personality() {}
