"""La Città's seeded random generators, versioned by the size of the seed.

Same seed + same orders = same game, on every machine, for ever; so a
generator, once games were stored with it, never changes. Two exist:

- :class:`Rng` (version 1, seeds below ``2**64``: every game stored before
  issue #12): SplitMix64, whose whole state is one 64-bit integer. Its seeds
  had 48 random bits, and the public opening cards narrow them enough to
  brute-force the rest, so no new game uses it.
- :class:`HashRng` (version 2, seeds of ``2**64`` and more: new games get a
  128-bit secret seed, see ``pbem.service.play.lifecycle.new_seed``): a counter
  generator, word ``i`` = BLAKE2b keyed with a 256-bit key hashed from the
  whole seed and the seat count, over ``i``. Its state is the key and the
  counter; knowing outputs tells nothing about the key short of breaking
  BLAKE2b.

:func:`for_seed` picks the generator; :func:`from_text` reads the
``to_text()`` of either (version 1 writes bare hex, as it always did).
"""
from __future__ import annotations

import hashlib

__all__ = ["Rng", "HashRng", "for_seed", "from_text", "V1_SEED_LIMIT"]

_MASK = (1 << 64) - 1
#: seeds below this use version 1 (SplitMix64); all others version 2
V1_SEED_LIMIT = 1 << 64
_V2_PREFIX = "h2:"


class _Uniform:
    """The draws both versions share, on top of ``next64()``."""

    __slots__ = ()

    def next64(self) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def below(self, n: int) -> int:
        """Uniform integer in ``0 .. n-1`` (n >= 1), without modulo bias."""
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: list) -> None:
        """Fisher–Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


class Rng(_Uniform):
    """Version 1: SplitMix64; ``state`` is one integer below ``2**64``."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def to_text(self) -> str:
        """16 hex digits (the form every stored version-1 game has)."""
        return f"{self.state:016x}"


class HashRng(_Uniform):
    """Version 2: ``next64()`` is the first 8 bytes (big-endian) of
    ``BLAKE2b(key=key, data=counter as 16 bytes)``, counter then + 1.
    ``key`` is 32 bytes, ``counter`` the number of words drawn so far."""

    __slots__ = ("key", "counter")

    def __init__(self, key: bytes, counter: int = 0) -> None:
        if len(key) != 32:
            raise ValueError("a version-2 generator key is 32 bytes")
        self.key = bytes(key)
        self.counter = int(counter)

    @classmethod
    def from_seed(cls, seed: int, salt: int) -> "HashRng":
        """The generator of ``seed`` (any size, the whole of it is used) for
        ``salt`` (the seat count: the same seed at another table deals
        differently, as in version 1)."""
        material = f"pbem.lacitta.rng.v2:{int(seed)}:{int(salt)}".encode("ascii")
        return cls(hashlib.blake2b(material, digest_size=32).digest())

    def next64(self) -> int:
        word = hashlib.blake2b(self.counter.to_bytes(16, "big"), key=self.key, digest_size=8).digest()
        self.counter += 1
        return int.from_bytes(word, "big")

    def to_text(self) -> str:
        """``"h2:<key hex>:<counter hex>"``."""
        return f"{_V2_PREFIX}{self.key.hex()}:{self.counter:x}"


def for_seed(seed: int, seats: int) -> Rng | HashRng:
    """The generator a new game of ``seats`` seats starts with: version 1
    (exactly as before) for ``seed < 2**64``, else version 2."""
    seed = int(seed)
    if seed < V1_SEED_LIMIT:
        return Rng(seed * 0x100000001B3 + seats)
    return HashRng.from_seed(seed, seats)


def from_text(value: str | int) -> Rng | HashRng:
    """The generator a stored state wrote with ``to_text()`` (an int is a
    version-1 state from the earliest stored games). Raises ``ValueError``
    for anything else."""
    if isinstance(value, int) and not isinstance(value, bool):
        return Rng(value)
    if not isinstance(value, str):
        raise ValueError(f"not a generator state: {value!r}")
    if value.startswith(_V2_PREFIX):
        key, _, counter = value[len(_V2_PREFIX):].partition(":")
        return HashRng(bytes.fromhex(key), int(counter, 16))
    return Rng(int(value, 16))
