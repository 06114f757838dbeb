"""Answer-text metrics against golden answers (the offline parts of the thesis's generation target GeT1):
ROUGE-1 P/R/F1 (rouge-score), BLEU (sacrebleu, sentence level), normalised Levenshtein similarity
(rapidfuzz), semantic similarity (cosine of the packaged embedding model), key-value recall (the
numbers, years, quoted titles and names of the golden answer that the answer states) and count accuracy
on counting questions. Citations and the reference list are removed before scoring."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from rapidfuzz.distance import Levenshtein
from rouge_score import rouge_scorer
from sacrebleu.metrics import BLEU

from kgqa.answering.words import WORD_NUMBERS

TEXT_METRICS = ("rouge1_p", "rouge1_r", "rouge1_f1", "bleu", "levenshtein", "semantic", "key_recall", "count_acc")
TEXT_LABELS = {
    "rouge1_p": "ROUGE-1 P",
    "rouge1_r": "ROUGE-1 R",
    "rouge1_f1": "ROUGE-1 F1",
    "bleu": "BLEU",
    "levenshtein": "Lev. sim",
    "semantic": "Semantic",
    "key_recall": "Key recall",
    "count_acc": "Count acc",
}
_CITATION = re.compile(r"\s*\[\d+(?:\s*[,;]\s*\d+)*\]")
_REFERENCES = re.compile(r"\n\s*(?:sources|references|reference list)\s*:.*$", re.IGNORECASE | re.DOTALL)
_REF_LINE = re.compile(r"^\s*\[\d+\]\s.*$", re.MULTILINE)
_QUOTED = re.compile(r"""'([^']{3,}?)'(?![A-Za-z])|"([^"]{3,})"|[“‘]([^”’]{3,})[”’]""")
_YEAR = re.compile(r"\b(1[89]\d\d|20\d\d)\b")
_NUMBER = re.compile(r"\b\d+(?:\.\d+)?\b")
_NAME_WORD = re.compile(r"^[A-Z][\w\-.&()]*$|^\([A-Z]+\)$")
_CONNECTORS = frozenset({"of", "for", "from", "in", "on", "to", "and", "with", "the", "de", "van", "von"})
_NOT_NAMES = frozenset(
    """the there this that these those it its in on at among yes no therefore a an
an as by for from of to with which what who how when where while whereas also both each all one two
three four five six seven eight nine ten first second third""".split()
)


def clean_answer(text: str) -> str:
    """The answer without `[i]` citations and without a reference list."""
    text = _REFERENCES.sub("", text or "")
    text = _REF_LINE.sub("", text)
    text = _CITATION.sub("", text)
    return " ".join(text.split())


def _numbers(text: str) -> list[int]:
    """Whole numbers stated in digits or words (years and numbers inside quotes excluded)."""
    text = _QUOTED.sub(" ", text)
    text = re.sub(r"(?:^|(?<=[\s:;,]))\d+\.(?=\s)", " ", text)  # enumeration markers "1. ", "2. "
    out = []
    for m in re.finditer(r"\b\d+\b|\b[a-z]+\b", text.lower()):
        w = m.group()
        if w.isdigit() and not _YEAR.fullmatch(w):
            out.append(int(w))
        elif w in WORD_NUMBERS or w == "once":
            out.append(WORD_NUMBERS.get(w, 1))
    return out


def key_values(golden: str) -> list[str]:
    """The golden answer's keys: quoted titles, years, numbers and capitalised names."""
    keys: list[str] = []
    quoted = [next(g for g in m.groups() if g) for m in _QUOTED.finditer(golden)]
    keys += [q.strip().rstrip(".") for q in quoted]
    rest = _QUOTED.sub(" , ", golden)
    keys += _YEAR.findall(rest)
    keys += [f"#{n}" for n in _numbers(rest)]
    for sentence in re.split(r"(?<=[.;:!?])\s+", rest):
        words = re.findall(r"\(?[\w\-.&]+\)?|,", sentence)
        span: list[str] = []
        for i, w in enumerate(words + [","]):
            bare = w.strip(".")
            if bare and _NAME_WORD.match(bare) and not bare.isdigit() and not (not span and bare.lower() in _NOT_NAMES):
                span.append(bare)
            elif (
                span
                and bare.lower() in _CONNECTORS
                and bare.lower() != "and"
                and i + 1 < len(words)
                and _NAME_WORD.match(words[i + 1].strip("."))
            ):
                span.append(bare)
            else:
                if span:
                    keys.append(" ".join(span))
                span = []
    return list(dict.fromkeys(k for k in keys if k and k.lower() not in _NOT_NAMES))


def states(answer: str, key: str) -> bool:
    """Whether the (cleaned) answer states a key (case-insensitive; numbers in digits or words)."""
    if key.startswith("#"):
        return int(key[1:]) in _numbers(answer)
    norm = lambda s: " ".join(re.sub(r"[^\w\s]", " ", s.lower()).split())  # noqa: E731
    return f" {norm(key)} " in f" {norm(answer)} "


def stated_count(answer: str, result: dict[str, Any] | None) -> int | None:
    """The count an answer gives: its structured result's, else the first number its text states."""
    if result and result.get("operation") == "count" and isinstance(result.get("value"), int):
        return result["value"]
    nums = _numbers(answer)
    return nums[0] if nums else None


@dataclass
class TextScorer:
    """Scores answer texts; `embed` maps texts to L2-normalised vectors (the packaged model)."""

    embed: Callable[[Sequence[str]], np.ndarray]

    def __post_init__(self) -> None:
        self._rouge = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=True)
        self._bleu = BLEU(effective_order=True)

    def score(
        self, answers: list[str], goldens: list[str], results: list[dict[str, Any] | None], counting: list[bool]
    ) -> list[dict[str, float | None]]:
        """Per question: every TEXT_METRICS value (None where it does not apply)."""
        clean = [clean_answer(a) for a in answers]
        vecs = self.embed(clean + goldens) if clean else np.zeros((0, 1))
        out = []
        for i, (a, g) in enumerate(zip(clean, goldens)):
            r = self._rouge.score(g, a)["rouge1"]
            keys = key_values(g)
            row: dict[str, float | None] = {
                "rouge1_p": r.precision,
                "rouge1_r": r.recall,
                "rouge1_f1": r.fmeasure,
                "bleu": self._bleu.sentence_score(a, [g]).score / 100.0,
                "levenshtein": Levenshtein.normalized_similarity(a.lower(), g.lower()),
                "semantic": float(np.dot(vecs[i], vecs[len(clean) + i])),
                "key_recall": sum(states(a, k) for k in keys) / len(keys) if keys else None,
                "count_acc": None,
            }
            if counting[i]:
                gold = _numbers(g)
                row["count_acc"] = float(bool(gold) and stated_count(a, results[i]) == gold[0])
            out.append(row)
        return out


def mean_text(rows: list[dict[str, Any]]) -> dict[str, float]:
    """Macro means of the text metrics over the rows where each applies (with n per metric)."""
    out: dict[str, float] = {}
    for m in TEXT_METRICS:
        vals = [r[m] for r in rows if r.get(m) is not None]
        if vals:
            out[m] = sum(vals) / len(vals)
            out[f"n_{m}"] = len(vals)
    return out


def text_table(overall: dict[str, float], by: dict[str, dict[str, float]], mode: str = "") -> str:
    """The answer-text metrics: overall, then by retrieval operation (n = questions scored)."""
    head = f"{'answer text':24s}" + "".join(f"{TEXT_LABELS[m]:>11s}" for m in TEXT_METRICS)

    def row(name: str, m: dict[str, float]) -> str:
        return f"{name[:24]:24s}" + "".join(f"{m[k]:>11.3f}" if k in m else f"{'-':>11s}" for k in TEXT_METRICS)

    n = max((int(v) for k, v in overall.items() if k.startswith("n_")), default=0)
    lines = [head, row(f"this run{f' ({mode})' if mode else ''} n={n}", overall), "by retrieval_operation:"]
    lines += [
        row(f"  {op} (n={max((int(v) for k, v in m.items() if k.startswith('n_')), default=0)})", m)
        for op, m in by.items()
    ]
    return "\n".join(lines)
