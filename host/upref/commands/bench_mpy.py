"""What a loaded `.mpy` file takes, and where, for `make bench`'s heap figures.

Read against MicroPython 1.29's loader (py/persistentcode.c, `mp_raw_code_load`): the header,
the names (interned on load), the constant objects, then a tree of raw code. A function's
code ("fun_data") goes where its kind says:

- bytecode: into the GC heap (`m_new`), on every port;
- native (`@micropython.native`, `@micropython.viper`): into executable memory the port
  provides. The ESP32 port reads it into the GC heap and copies it to memory allocated with
  `heap_caps_malloc(len, MALLOC_CAP_EXEC)` (ports/esp32/main.c `esp_native_code_commit`: the
  length rounded up to 4 bytes, behind a 4-byte link of the port's list of such blocks); the
  GC copy is garbage from then on. The unix port allocates it outside the GC heap
  (`mp_unix_alloc_exec`, mmap). On xtensawin, whose machine code cannot be read byte by byte,
  the prelude (signature, names, line table: the bytes from `prelude_offset` to the end) is
  copied back into the GC heap (`MICROPY_EMIT_NATIVE_PRELUDE_SEPARATE_FROM_MACHINE_CODE`);
  viper's read-only data and zeroed data go into the GC heap on every port.

The raw code objects, their children's tables and each function object are made of words:
the heap probe sees them and they are not byte data.

Not all bytecode stays: the module's own code and each class's body run once, at the import,
and nothing keeps them afterwards (the functions they make keep their own code, not their
maker's), nor does a function the module deletes once it has run (`del f`). That code
is garbage once the import is over, on the chip as under the unix port (`run_once`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["EXEC_LINK", "PRELUDE_SEPARATE", "QSTR_NUMBER", "MpyParts", "mpy_parts"]

_BYTECODE, _NATIVE_PY, _VIPER, _ASM = 0, 1, 2, 3
"""A raw code's kind, as stored (MP_CODE_BYTECODE and after, less MP_CODE_BYTECODE)."""
_ARCH_FLAGS = 0x40  # MPY_FEATURE_ARCH_FLAGS: a varint of the architecture's flags follows the header
_OBJ_SIMPLE = range(0, 5)  # fun table, None, False, True, Ellipsis: no data
_OBJ_STR, _OBJ_BYTES, _OBJ_TUPLE = 5, 6, 10
_VIPER_RELOC, _VIPER_RODATA, _VIPER_BSS = 0x10, 0x20, 0x40  # MP_SCOPE_FLAG_VIPER*
PRELUDE_SEPARATE = ("xtensawin",)
"""The architectures whose native preludes are copied into the GC heap (py/mpconfig.h)."""
EXEC_LINK = 4
QSTR_NUMBER = 2
"""Bytes of a name's number in a loaded module's table of names (qstr_short_t, on every port)."""
"""Bytes of the ESP32 port's link in front of each block of native code (native_code_node_t)."""


@dataclass
class MpyParts:
    """The bytes of one .mpy file by where they go when it is loaded."""

    size: int = 0
    names: int = 0  # the table of names (each stored whole: length, characters, NUL)
    n_names: int = 0  # how many: the module's table of them is 2 bytes each in the GC heap
    constants: int = 0  # the characters of str and bytes constants: byte data in the GC heap
    bytecode: int = 0  # bytecode functions' code: GC heap
    native: list[int] = field(default_factory=list)  # each native function's machine code, as stored
    preludes: int = 0  # the native functions' preludes (their part of `native`)
    viper_data: int = 0  # viper's read-only and zeroed data: GC heap
    run_once: int = 0  # of `bytecode`, the code run at the import and let go then (above)

    def gc_bytes(self, arch: str) -> int:
        """Byte data this file leaves in the GC heap once loaded on a port of `arch`: the names'
        interned characters left out (the probe counts what is interned), but not the module's
        table of their numbers, 2 bytes each on every port (qstr_short_t: py/persistentcode.c,
        mp_module_context_alloc_tables), which is not made of words."""
        kept = self.preludes if arch in PRELUDE_SEPARATE else 0
        code = self.bytecode - self.run_once
        return self.constants + code + self.viper_data + kept + QSTR_NUMBER * self.n_names

    def exec_bytes(self) -> int:
        """Bytes of executable memory the ESP32 port takes for this file's native code."""
        return sum((n + 3) // 4 * 4 + EXEC_LINK for n in self.native)


class _Reader:
    def __init__(self, data: bytes, pos: int = 0) -> None:
        self.data, self.pos = data, pos

    def byte(self) -> int:
        b = self.data[self.pos]
        self.pos += 1
        return b

    def uint(self) -> int:
        v = 0
        while True:
            b = self.byte()
            v = (v << 7) | (b & 0x7F)
            if not b & 0x80:
                return v

    def skip(self, n: int) -> None:
        self.pos += n
        if self.pos > len(self.data):
            raise ValueError("the .mpy file ends inside a record")


def _header(r: _Reader) -> None:
    if len(r.data) < 4 or r.data[0] != ord("M") or r.data[1] != 6:
        raise ValueError("not a .mpy file of format 6")
    r.pos = 4
    if r.data[2] & _ARCH_FLAGS:
        r.uint()


def _names(r: _Reader, n: int, got: list[str]) -> int:
    """Skip the table of `n` names, each appended to `got` ("" for a static name's number)."""
    start = r.pos
    for _ in range(n):
        v = r.uint()
        got.append("")
        if not v & 1:  # a name stored whole (an odd value is a static name's number)
            got[-1] = r.data[r.pos:r.pos + (v >> 1)].decode("utf-8", "replace")
            r.skip((v >> 1) + 1)
    return r.pos - start


_LOAD_NAME = 0x11
"""MP_BC_LOAD_NAME (py/bc0.h): a function's code never starts with it; a class body's always
does (`__module__ = __name__`, py/compile.c compile_scope), and only the module and its class
bodies load names this way."""


def _uvarint(code: bytes, i: int) -> tuple[int, int]:
    v = 0
    while True:
        b = code[i]
        i += 1
        v = (v << 7) | (b & 0x7F)
        if not b & 0x80:
            return v, i


def _bytecode_facts(code: bytes) -> tuple[int, int]:
    """A bytecode function's name (its index in the module's names) and its first opcode: past
    the prelude's signature and sizes (py/bc.h MP_BC_PRELUDE_SIG_DECODE, _SIZE_DECODE), its
    source info (the name first) and its cells."""
    i = 0
    while code[i] & 0x80:
        i += 1
    i += 1
    n_info = n_cell = n = 0
    while True:
        z = code[i]
        i += 1
        n_cell |= (z & 1) << n
        n_info |= ((z & 0x7E) >> 1) << (6 * n)
        n += 1
        if not z & 0x80:
            break
    name, _ = _uvarint(code, i)
    return name, code[i + n_info + n_cell]


def _constant(r: _Reader) -> int:
    """Skip one constant object; the bytes of its characters (str, bytes)."""
    kind = r.byte()
    if kind in _OBJ_SIMPLE:
        return 0
    n = r.uint()
    if kind == _OBJ_TUPLE:
        return sum(_constant(r) for _ in range(n))
    r.skip(n + (kind in (_OBJ_STR, _OBJ_BYTES)))
    return n if kind in (_OBJ_STR, _OBJ_BYTES) else 0


def _relocations(r: _Reader) -> None:
    """Skip a viper function's relocations (py/persistentcode.c mp_native_relocate)."""
    while (op := r.byte()) != 0xFF:
        if op & 1:
            r.uint()
        op >>= 1
        if op <= 5 and op & 1:
            r.uint()


@dataclass
class _Module:
    """What tells which code of a module runs once: its names, and the functions it deletes."""

    names: list[str]
    dropped: frozenset[str]


def _raw_code(r: _Reader, parts: MpyParts, m: _Module, depth: int = 0) -> None:
    kind_len = r.uint()
    kind, has_children, size = kind_len & 3, bool(kind_len & 4), kind_len >> 3
    code = r.data[r.pos:r.pos + size]
    r.skip(size)
    flags = 0
    if kind == _BYTECODE:
        parts.bytecode += size
        name, first = _bytecode_facts(code)
        named = m.names[name] if name < len(m.names) else ""
        if depth == 0 or first == _LOAD_NAME or (depth == 1 and named in m.dropped):
            parts.run_once += size
    else:
        parts.native.append(size)
        if kind == _NATIVE_PY:
            offset = r.uint()
            parts.preludes += size - offset  # its signature holds no viper flags: no relocations
        else:
            flags = r.uint()
            if kind == _ASM:
                r.uint()
                r.uint()
    if kind == _VIPER:
        rodata = r.uint() if flags & _VIPER_RODATA else 0
        bss = r.uint() if flags & _VIPER_BSS else 0
        r.skip(rodata)
        parts.viper_data += rodata + (bss + 3) // 4 * 4
    if has_children:
        for _ in range(r.uint()):
            _raw_code(r, parts, m, depth + 1)
    if kind != _BYTECODE and flags & _VIPER_RELOC:
        _relocations(r)


def mpy_parts(data: bytes, dropped: frozenset[str] = frozenset()) -> MpyParts:
    """The bytes of a .mpy file (format 6) by where they go when it is loaded; `dropped`: the
    functions its module deletes once they have run (their code is run once, with its own).

    :raises ValueError: when it is not such a file, or ends early.
    """
    r = _Reader(data)
    _header(r)
    n_names, n_objects = r.uint(), r.uint()
    parts = MpyParts(size=len(data), n_names=n_names)
    names: list[str] = []
    parts.names = _names(r, n_names, names)
    parts.constants = sum(_constant(r) for _ in range(n_objects))
    try:
        _raw_code(r, parts, _Module(names, dropped))
    except IndexError:
        raise ValueError("the .mpy file ends inside a record") from None
    if r.pos != len(data):
        raise ValueError(f"{len(data) - r.pos} bytes after the module's code: not read as MicroPython 1.29 writes them")
    return parts

