"""How long regenerating every vector family takes (goal: under 60 s on this machine), and the
size of vectors/ (goal: under 20 MB). Generates in memory; writes nothing.

    python bench/bench_vectors.py
"""
import time

from conformance.vectors import library as vectors
from conformance.vectors.generators import FAMILIES


def main() -> None:
    total = 0.0
    size = 0
    for family in FAMILIES:
        start = time.perf_counter()
        text = vectors.generate(family)
        elapsed = time.perf_counter() - start
        total += elapsed
        size += len(text.encode())
        print(f"{family:12} {elapsed:7.2f} s  {len(text.encode()) / 1024:8.0f} KiB")
    print(f"all families {total:7.2f} s  {size / 1024 / 1024:8.2f} MiB   (goals: < 60 s, < 20 MB)")


if __name__ == "__main__":
    main()
