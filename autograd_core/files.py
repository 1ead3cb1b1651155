"""Reading and writing user-named files safely: one place for what every loader and saver needs.

Reading refuses anything but a regular file (``/dev/zero`` would be read
until memory runs out; a FIFO would block forever) and never reads more than
a cap.  Writing is atomic (a temporary file in the same folder, flushed, then
renamed over the target), so a failure leaves the old file byte-identical; a
symlink stays a link (its target is rewritten) and an existing file keeps its
permissions and, where allowed, its owner.

Every problem raises ``FileError`` whose text is the reason only, never the
path, so a caller names the file once: ``f"cannot read {path}: {exc}"``.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Callable

# Opening a FIFO for reading waits for a writer unless non-blocking; regular files ignore the flag.
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


class FileError(Exception):
    """A file cannot be read or written; ``str()`` is the reason (without the path)."""


def format_size(n: int) -> str:
    """Bytes for a person: 512 bytes, 42.0 MiB."""
    if n < 1024:
        return f"{n} bytes"
    for unit in ("KiB", "MiB", "GiB", "TiB"):
        n /= 1024
        if n < 1024 or unit == "TiB":
            return f"{n:.1f} {unit}"
    raise AssertionError("unreachable")


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "it is a folder, not a file"
    if stat.S_ISFIFO(mode):
        return "it is a pipe (FIFO), not a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "it is a device, not a regular file"
    if stat.S_ISSOCK(mode):
        return "it is a socket, not a regular file"
    return "it is not a regular file"


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def read_regular_file(path: str | os.PathLike, max_bytes: int) -> bytes:
    """The bytes of a regular file of at most ``max_bytes``; FileError for anything else.

    The type is checked before opening (a device is never opened) and again on
    the open descriptor (the path may have changed in between); the read stops
    one byte past the cap, so a file that grows while being read is refused too.
    """
    try:
        before = os.stat(path)
    except OSError as exc:
        raise FileError(_reason(exc)) from exc
    if not stat.S_ISREG(before.st_mode):
        raise FileError(_kind(before.st_mode))
    if before.st_size > max_bytes:
        raise FileError(f"it is too large ({format_size(before.st_size)}; the limit is {format_size(max_bytes)})")
    try:
        fd = os.open(path, _READ_FLAGS)
    except OSError as exc:
        raise FileError(_reason(exc)) from exc
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FileError(_kind(st.st_mode))
        # One read of the expected size (no copy); more only if the file grew meanwhile.
        chunks = [os.read(fd, min(st.st_size, max_bytes) + 1)]
        total = len(chunks[0])
        while total <= max_bytes and chunks[-1]:
            chunks.append(os.read(fd, min(1 << 20, max_bytes + 1 - total)))
            total += len(chunks[-1])
    except OSError as exc:
        raise FileError(_reason(exc)) from exc
    finally:
        os.close(fd)
    if total > max_bytes:
        raise FileError(f"it is too large (over {format_size(max_bytes)}, the limit)")
    chunks = [c for c in chunks if c]
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def write_target(path: str | os.PathLike) -> str:
    """The file a write to ``path`` really replaces: the end of a symlink chain, or ``path`` itself.

    Raises FileError if that is an existing folder, device, pipe or socket, a
    read-only file, or if its folder does not exist.
    """
    target = os.path.realpath(os.fspath(path)) if os.path.islink(path) else os.path.abspath(os.fspath(path))
    try:
        st = os.stat(target)
    except FileNotFoundError:
        folder = os.path.dirname(target)
        if not os.path.isdir(folder):
            raise FileError(f"the folder {folder} does not exist") from None
        return target
    except OSError as exc:
        raise FileError(_reason(exc)) from exc
    if not stat.S_ISREG(st.st_mode):
        raise FileError(_kind(st.st_mode))
    if not os.access(target, os.W_OK):
        # A rename would still replace it, but its owner made it read-only on purpose.
        raise FileError("the file is read-only")
    return target


def check_writable(path: str | os.PathLike) -> None:
    """Raise FileError unless ``write_atomically(path, ...)`` can create its file next to the target.

    It really creates (and removes) a temporary file there, so a read-only
    file system, a missing permission or a full quota shows up now, not after
    a long computation.
    """
    target = write_target(path)
    try:
        with tempfile.TemporaryFile(dir=os.path.dirname(target)):
            pass
    except OSError as exc:
        raise FileError(_reason(exc)) from exc


def _new_file_mode() -> int:
    """The mode ``open()`` would give a new file: 0o666 minus the umask."""
    umask = None
    with contextlib.suppress(OSError, ValueError), open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("Umask:"):
                umask = int(line.split()[1], 8)
    if umask is None:  # not Linux: read it the only portable way (set and restore)
        umask = os.umask(0o022)
        os.umask(umask)
    return 0o666 & ~umask


def write_atomically(path: str | os.PathLike, content: bytes | Callable[[str], None]) -> None:
    """Replace ``path`` with ``content`` (bytes, or a function that writes a file at the path it is given).

    All or nothing: on any failure the old file is untouched and no temporary
    file is left.  Raises FileError for anything the OS refuses.
    """
    target = write_target(path)
    try:
        old = os.stat(target)
    except FileNotFoundError:
        old = None
    except OSError as exc:
        raise FileError(_reason(exc)) from exc
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=os.path.dirname(target))
    except OSError as exc:
        raise FileError(_reason(exc)) from exc
    try:
        if callable(content):
            os.close(fd)
            content(tmp)
            with open(tmp, "rb+") as f:
                os.fsync(f.fileno())
        else:
            with os.fdopen(fd, "wb") as f:
                f.write(content)
                f.flush()
                os.fsync(f.fileno())
        os.chmod(tmp, stat.S_IMODE(old.st_mode) if old is not None else _new_file_mode())
        if old is not None and hasattr(os, "chown") and (old.st_uid, old.st_gid) != (os.geteuid(), os.getegid()):
            with contextlib.suppress(OSError):  # only root may give a file away; others keep their own
                os.chown(tmp, old.st_uid, old.st_gid)
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            # The OS says why in strerror; a writer's own message would name the temporary file.
            raise FileError(exc.strerror or "the writer failed") from exc
        raise


def count_json_values(raw: bytes) -> int:
    """An upper bound on the number of values in a JSON document, in milliseconds, before parsing it.

    Every value inside an array or object follows a comma or an opening
    bracket (commas inside strings only make the bound looser).  Parsing costs
    ~30–100 bytes of Python objects per value, so this count, not the file's
    size, bounds the memory ``json.loads`` will take.
    """
    return raw.count(b",") + raw.count(b"[") + raw.count(b"{") + 1
