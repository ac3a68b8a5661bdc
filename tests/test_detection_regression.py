"""Detection quality on a fixed slice of HaluEval's development split, through the real
processor: the lexical contract at 0.7 and the recommended offline configuration
(examples/offline-detection.json). The expected figures are what the code gave when they were
written; a change to the verifier that moves them must say so here (and in the README table,
which `make bench-quality` measures on the whole development split)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from detection_kit import LabelledRun, RunFlags, detection, send_runs

ROOT = Path(__file__).resolve().parent.parent
SLICE = ROOT / "tests" / "fixtures" / "halueval" / "dev_slice.jsonl"
RECOMMENDED = ROOT / "examples" / "offline-detection.json"

#: task -> (items, lexical TP, lexical FP, recommended TP, recommended FP)
EXPECTED = {
    "qa": (150, 20, 0, 102, 0),
    "summarization": (50, 5, 2, 20, 12),
}


def runs_of(task: str) -> list[LabelledRun]:
    runs = []
    for line in SLICE.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record["task"] == task:
            runs.append(LabelledRun(record["right"], record["evidence"], False))
            runs.append(LabelledRun(record["hallucinated"], record["evidence"], True))
    return runs


def test_the_slice_is_the_development_split_only() -> None:
    items = [json.loads(line)["item"] for line in SLICE.read_text().splitlines()]
    assert max(items) < 5000  # items 5000-9999 are held out


@pytest.mark.parametrize("task", sorted(EXPECTED))
def test_detection_on_the_development_slice(task: str) -> None:
    items, lexical_tp, lexical_fp, tp, fp = EXPECTED[task]
    runs = runs_of(task)
    assert len(runs) == 2 * items
    lexical, _ = send_runs(runs, {"min_claim_grounding_rate": 0.7})
    recommended, _ = send_runs(runs, {"settings_file": str(RECOMMENDED)})
    assert all(f.judge_outcome == "ok" or f.judge_outcome == "skipped" for f in recommended)
    found = detection(lexical, lambda f: f.lexical_flag)
    assert (found.true_positives, found.false_positives) == (lexical_tp, lexical_fp)
    found = detection(recommended, RunFlags.alert.fget)  # type: ignore[attr-defined]
    assert (found.true_positives, found.false_positives) == (tp, fp)
    # The recommended file adds the judge; the contract's own numbers stay what they were.
    assert [f.rate for f in recommended] == [f.rate for f in lexical]


AGENT_CASES = ROOT / "benchmarks" / "data" / "agent_style_cases.json"
#: set -> (pairs, recommended TP, recommended FP): the agent-style cases by where they come from.
AGENT_EXPECTED = {
    "rules-v2-development": (42, 38, 0),
    "rules-v3-development": (24, 19, 2),
    "blind-1": (30, 22, 0),
    "blind-2": (30, 20, 0),
    "blind-3": (40, 28, 0),
    "blind-4": (40, 29, 0),
    "blind-5": (40, 34, 3),
    "blind-6": (40, 32, 3),  # held out: never tuned on
    "blind-7": (40, 11, 1),
    "blind-8": (40, 20, 9),  # held out
    "blind-9": (40, 18, 2),
    "blind-10": (40, 21, 4),  # held out
    "blind-11": (40, 18, 5),
    "blind-12": (40, 23, 2),
    "blind-13": (40, 20, 4),
    "blind-14": (40, 24, 3),
    "blind-15": (40, 25, 6),
    "blind-16": (40, 25, 6),
    "blind-17": (40, 18, 7),  # written for the sixth rules, measured once when they were final
    "blind-18": (40, 17, 2),  # the same; development for the seventh rules
    "blind-19": (40, 10, 2),  # written for the seventh rules, measured once when they were final
    "blind-20": (40, 18, 3),  # the same; development for the eighth rules
    "blind-21": (40, 25, 18),  # written for the eighth rules, measured once when they were final
    "blind-22": (40, 24, 13),  # the same; development for the ninth rules
    "blind-23": (40, 16, 9),  # written for the ninth rules, measured once when they were final
    "blind-24": (40, 26, 19),  # the same
    "blind-25": (40, 28, 20),  # written after the ninth rules, measured once with them
    "blind-26": (40, 25, 10),  # the same
    "blind-27": (40, 31, 0),  # the issue's own brief, measured once with the ninth rules, then
    "blind-28": (40, 26, 0),  # development for the tenth
    "blind-29": (40, 28, 0),  # the same brief, sealed until the tenth rules were final
    "blind-30": (40, 25, 0),  # the same
    "blind-31": (40, 27, 1),  # the same brief, written after the tenth rules, measured once
    "blind-32": (40, 30, 0),  # the same; with blind-27 to -31, development for the eleventh
    "blind-33": (40, 30, 1),  # the same brief, measured once with a draft of the eleventh
    "blind-34": (40, 24, 1),  # rules, then development for the rest of them
    "blind-35": (40, 30, 0),  # the same
    "blind-36": (40, 32, 0),  # the same
    "blind-37": (40, 33, 1),  # the same brief, sealed until the eleventh rules were final
    "blind-38": (40, 30, 1),  # the same
    "blind-39": (40, 30, 0),  # the same
    "blind-40": (40, 33, 0),  # the same; development for the twelfth rules
    "blind-41": (40, 29, 1),  # the same brief, sealed until the twelfth rules were final
    "blind-42": (40, 31, 1),  # the same
    "blind-43": (40, 27, 1),  # the same
    "blind-44": (40, 33, 0),  # the same; development for the thirteenth rules
    "blind-45": (40, 32, 0),  # the same brief, sealed until the thirteenth rules were final
    "blind-46": (40, 25, 1),  # the same
    "blind-47": (40, 30, 0),  # the same
    "blind-48": (40, 34, 0),  # the same; development for the fourteenth rules
    "blind-49": (40, 34, 0),  # the same brief, sealed until the fourteenth rules were final
    "blind-50": (40, 28, 0),  # the same
    "blind-51": (40, 28, 0),  # the same
    "blind-52": (40, 29, 0),  # the same; development for the fifteenth rules
    "blind-53": (40, 30, 2),  # the same brief, sealed until the fifteenth rules were final
    "blind-54": (40, 31, 0),  # the same
    "blind-55": (40, 33, 0),  # the same
    "blind-56": (40, 30, 1),  # the same; development for the sixteenth rules
    "blind-57": (40, 32, 1),  # the same brief, sealed until the sixteenth rules were final
    "blind-58": (40, 36, 0),  # the same
    "blind-59": (40, 29, 2),  # the same
    "blind-60": (40, 30, 0),  # the same; development for the seventeenth rules
    "blind-61": (40, 32, 1),  # the same brief, sealed until the seventeenth rules were final
    "blind-62": (40, 30, 1),  # the same
    "blind-63": (40, 30, 0),  # the same
    "blind-64": (40, 26, 0),  # the same; development for the eighteenth rules
    "blind-65": (40, 30, 0),  # the same brief, sealed until the eighteenth rules were final
    "blind-66": (40, 28, 0),  # the same
    "blind-67": (40, 32, 0),  # the same
    "blind-68": (40, 32, 0),  # the same; development for the nineteenth rules
    "blind-69": (40, 32, 0),  # the same brief, sealed until the nineteenth rules were final
    "blind-70": (40, 30, 0),  # the same
    "blind-71": (40, 28, 0),  # the same
    "blind-72": (40, 30, 0),  # the same; development for the twentieth rules
    "blind-73": (40, 30, 0),  # the same brief, measured once with a draft of the twentieth rules,
    "blind-74": (40, 32, 0),  # then development for the rest of them
    "blind-75": (40, 32, 0),  # the same
    "blind-76": (40, 31, 0),  # the same
    "blind-77": (40, 33, 2),  # the same brief, sealed until the twentieth rules were final
    "blind-78": (40, 30, 0),  # the same
    "blind-79": (40, 35, 0),  # the same
    "blind-80": (40, 34, 1),  # the same; with blind-73 to -79, development for the twenty-first
    "blind-81": (40, 28, 1),  # the same brief, sealed until the twenty-first rules were final
    "blind-82": (40, 30, 0),  # the same
    "blind-83": (40, 25, 1),  # the same
    "blind-84": (40, 31, 2),  # the same; development for the twenty-second rules
    "blind-85": (40, 26, 1),  # the same brief, sealed until the twenty-second rules were final
    "blind-86": (40, 29, 0),  # the same
    "blind-87": (40, 33, 0),  # the same
    "blind-88": (40, 33, 0),  # the same; development for the twenty-third rules
    "blind-89": (40, 34, 0),  # the same brief, sealed until the twenty-third rules were final
    "blind-90": (40, 35, 1),  # the same
    "blind-91": (40, 29, 0),  # the same
    "blind-92": (40, 34, 0),  # the same; development for the twenty-fourth rules
    "blind-93": (40, 32, 0),  # the same brief, sealed until the twenty-fourth rules were final
    "blind-94": (40, 28, 1),  # the same
    "blind-95": (40, 36, 0),  # the same
    "blind-96": (40, 35, 0),  # the same; development for the twenty-fifth rules
    "blind-97": (40, 30, 1),  # the same brief, sealed until the twenty-fifth rules were final
    "blind-98": (40, 31, 4),  # the same
    "blind-99": (40, 29, 0),  # the same
    "blind-100": (40, 30, 1),  # the same; development for the twenty-sixth rules
    "blind-101": (40, 28, 1),  # the same brief, sealed until the twenty-sixth rules were final
    "blind-102": (40, 32, 1),  # the same
    "blind-103": (40, 30, 1),  # the same
    "blind-104": (40, 30, 1),  # the same; development for the twenty-seventh rules
    "blind-105": (40, 30, 0),  # the same brief, sealed until the twenty-seventh rules were final
    "blind-106": (40, 32, 2),  # the same
    "blind-107": (40, 31, 0),  # the same
    "blind-108": (40, 31, 1),  # the same; development for the twenty-eighth rules
    "blind-109": (40, 32, 0),  # the same brief, sealed until the twenty-eighth rules were final
    "blind-110": (40, 33, 0),  # the same
    "blind-111": (40, 27, 1),  # the same
    "blind-112": (40, 34, 1),  # the same
    "blind-113": (40, 26, 2),  # a brief written again, sealed until the twenty-ninth rules were final
    "blind-114": (40, 23, 2),  # the same
    "blind-115": (40, 17, 2),  # the same
    "blind-116": (40, 24, 1),  # the same
    "blind-117": (40, 27, 2),  # that brief, measured once with a draft of the thirtieth rules
    "blind-118": (40, 28, 1),  # the same
    "blind-119": (40, 27, 0),  # the same
    "blind-120": (40, 24, 4),  # the same
    "blind-121": (40, 24, 2),  # the same brief, sealed until the thirtieth rules were final
    "blind-122": (40, 24, 1),  # the same
    "blind-123": (40, 23, 1),  # the same
    "blind-124": (40, 25, 1),  # the same
    "blind-125": (40, 22, 1),  # the same brief, sealed until the thirty-first rules were final
    "blind-126": (40, 29, 0),  # the same
    "blind-127": (40, 24, 4),  # the same
    "blind-128": (40, 22, 1),  # the same
    "blind-129": (40, 23, 0),  # the same brief, sealed until the thirty-second rules were final
    "blind-130": (40, 22, 0),  # the same
    "blind-131": (40, 25, 3),  # the same
    "blind-132": (40, 23, 0),  # the same
    "blind-133": (40, 25, 4),  # the same brief, sealed until the thirty-third rules were final
    "blind-134": (40, 28, 1),  # the same
    "blind-135": (40, 26, 3),  # the same
    "blind-136": (40, 26, 2),  # the same
    "blind-137": (40, 17, 1),  # the same brief, sealed until the thirty-fourth rules were final
    "blind-138": (40, 25, 2),  # the same
    "blind-139": (40, 19, 0),  # the same
    "blind-140": (40, 24, 0),  # the same
    "blind-141": (40, 23, 1),  # the same brief, sealed until the thirty-fifth rules were final
    "blind-142": (40, 20, 3),  # the same
    "blind-143": (40, 29, 0),  # the same
    "blind-144": (40, 21, 0),  # the same
    "blind-145": (40, 27, 3),  # the same brief, sealed until the thirty-sixth rules were final
    "blind-146": (40, 23, 0),  # the same
    "blind-147": (40, 21, 2),  # the same
    "blind-148": (40, 27, 2),  # the same
    "blind-149": (40, 20, 1),  # the same brief, sealed until the thirty-seventh rules were final
    "blind-150": (40, 29, 1),  # the same
    "blind-151": (40, 21, 2),  # the same
    "blind-152": (40, 28, 2),  # the same
    "blind-153": (40, 24, 0),  # the same brief, sealed until the thirty-eighth rules were final
    "blind-154": (40, 25, 3),  # the same
    "blind-155": (40, 25, 3),  # the same
    "blind-156": (40, 29, 0),  # the same
    "blind-157": (40, 26, 5),  # the same brief, sealed until the thirty-ninth rules were final
    "blind-158": (40, 27, 1),  # the same
    "blind-159": (40, 27, 2),  # the same
    "blind-160": (40, 24, 3),  # the same
    "blind-161": (40, 22, 5),  # the same brief, sealed until the fortieth rules were final
    "blind-162": (40, 21, 1),  # the same
    "blind-163": (40, 25, 2),  # the same
    "blind-164": (40, 26, 2),  # the same
    "blind-165": (40, 31, 0),  # the same brief, sealed until the forty-first rules were final
    "blind-166": (40, 24, 2),  # the same
    "blind-167": (40, 26, 2),  # the same
    "blind-168": (40, 31, 1),  # the same
    "blind-169": (40, 28, 1),  # the same brief, sealed until the forty-second rules were final
    "blind-170": (40, 29, 0),  # the same
    "blind-171": (40, 28, 2),  # the same
    "blind-172": (40, 26, 3),  # the same
    "blind-173": (40, 26, 2),  # the same brief, sealed until the forty-third rules were final
    "blind-174": (40, 29, 2),  # the same
    "blind-175": (40, 21, 1),  # the same
    "blind-176": (40, 28, 3),  # the same
    "blind-177": (40, 22, 1),  # the same brief, sealed until the forty-fourth rules were final
    "blind-178": (40, 27, 2),  # the same
    "blind-179": (40, 26, 1),  # the same
    "blind-180": (40, 25, 0),  # the same
    "blind-181": (40, 22, 2),  # the same brief, sealed until the forty-fifth rules were final
    "blind-182": (40, 22, 4),  # the same
    "blind-183": (40, 24, 1),  # the same
    "blind-184": (40, 27, 2),  # the same
    "blind-185": (40, 27, 4),  # the same brief, sealed until the alert kinds were final
    "blind-186": (40, 23, 1),  # the same
    "blind-187": (40, 22, 3),  # the same
    "blind-188": (40, 22, 7),  # the same
    "blind-189": (40, 25, 3),  # the same brief, sealed, a second batch for the paging file
    "blind-190": (40, 28, 3),  # the same
    "blind-191": (40, 28, 1),  # the same
    "blind-192": (40, 25, 4),  # the same
    "blind-193": (40, 26, 5),  # the same brief, sealed until the forty-sixth rules were final
    "blind-194": (40, 30, 1),  # the same
    "blind-195": (40, 25, 2),  # the same
    "blind-196": (40, 25, 5),  # the same
    "blind-197": (40, 31, 1),  # the same brief, written after the forty-sixth rules were final
    "blind-198": (40, 25, 3),  # the same
    "blind-199": (40, 28, 3),  # the same
    "blind-200": (40, 24, 4),  # the same
    "blind-201": (40, 28, 3),  # the same brief, sealed until the forty-seventh rules were final
    "blind-202": (40, 21, 0),  # the same
    "blind-203": (40, 21, 1),  # the same
    "blind-204": (40, 25, 2),  # the same
    "blind-205": (40, 25, 2),  # the same brief, sealed until the forty-eighth rules were final
    "blind-206": (40, 17, 1),  # the same
    "blind-207": (40, 27, 3),  # the same
    "blind-208": (40, 29, 2),  # the same
    "blind-209": (40, 19, 1),  # the same brief, sealed until the forty-eighth rules were final (v49 measured)
    "blind-210": (40, 24, 2),  # the same
    "blind-211": (40, 24, 6),  # the same
    "blind-212": (40, 21, 1),  # the same
    "blind-213": (40, 23, 2),  # the same brief, sealed until the fiftieth rules were final
    "blind-214": (40, 29, 2),  # the same
    "blind-215": (40, 26, 1),  # the same
    "blind-216": (40, 26, 1),  # the same
    "blind-217": (40, 24, 3),  # the same brief, sealed until the fifty-first rules were final
    "blind-218": (40, 23, 2),  # the same
    "blind-219": (40, 24, 2),  # the same
    "blind-220": (40, 27, 2),  # the same
    "blind-221": (40, 25, 0),  # the same brief, sealed until the fifty-second rules were final
    "blind-222": (40, 27, 1),  # the same
    "blind-223": (40, 27, 2),  # the same
    "blind-224": (40, 23, 2),  # the same
    "blind-225": (40, 29, 2),  # the same brief, sealed until the fifty-third rules were final
    "blind-226": (40, 26, 3),  # the same
    "blind-227": (40, 28, 3),  # the same
    "blind-228": (40, 22, 3),  # the same
    "blind-229": (40, 27, 3),  # the same brief, sealed, measured once with the fifty-third rules
    "blind-230": (40, 23, 2),  # the same
    "blind-231": (40, 25, 1),  # the same
    "blind-232": (40, 26, 3),  # the same
    "blind-233": (40, 30, 3),  # the same brief, sealed, measured once with the fifty-third rules
    "blind-234": (40, 21, 5),  # the same
    "blind-235": (40, 24, 0),  # the same
    "blind-236": (40, 24, 2),  # the same
    "blind-237": (40, 20, 1),  # closing questions, development for the fifty-fourth rules
    "blind-238": (40, 26, 4),  # the same
    "blind-239": (40, 23, 3),  # closing questions, sealed until the fifty-fourth rules
    "blind-240": (40, 21, 3),  # the same
    "blind-241": (40, 23, 3),  # closing questions, no rule change planned, sealed
    "blind-242": (40, 21, 1),  # the same
    "blind-243": (40, 24, 1),  # the usual brief, no rule change planned, sealed; then development
    "blind-244": (40, 27, 3),  # the same
    "blind-245": (40, 18, 0),  # the same
    "blind-246": (40, 30, 3),  # the same
    "blind-247": (40, 23, 0),  # closing questions, sealed until the fifty-fifth rules
    "blind-248": (40, 21, 3),  # the same
    "blind-249": (40, 29, 3),  # the usual brief, sealed until the fifty-sixth rules
    "blind-250": (40, 27, 3),  # the same
    "blind-251": (40, 24, 3),  # closing questions, sealed until the fifty-sixth rules
    "blind-252": (40, 25, 0),  # the same
    "blind-253": (40, 23, 3),  # the usual brief, sealed until the fifty-seventh rules
    "blind-254": (40, 19, 2),  # the same
    "blind-255": (40, 25, 2),  # closing questions, sealed until the fifty-seventh rules
    "blind-256": (40, 23, 2),  # the same
    "blind-257": (40, 27, 4),  # the usual brief, sealed until the fifty-eighth rules
    "blind-258": (40, 25, 2),  # the same
    "blind-259": (40, 24, 0),  # the same
    "blind-260": (40, 21, 0),  # closing questions, sealed until the fifty-eighth rules
    "blind-261": (40, 25, 2),  # the usual brief, sealed until the fifty-ninth rules
    "blind-262": (40, 23, 3),  # the same
    "blind-263": (40, 24, 3),  # closing questions, sealed until the fifty-ninth rules
    "blind-264": (40, 24, 1),  # the same
    "blind-265": (40, 18, 3),  # the usual brief, sealed until the sixtieth rules
    "blind-266": (40, 23, 3),  # the same
    "blind-267": (40, 27, 8),  # the same
    "blind-268": (40, 23, 5),  # closing questions, sealed until the sixtieth rules
    "blind-269": (40, 19, 5),  # the usual brief, sealed until the sixtieth rules
    "blind-270": (40, 26, 5),  # the same
    "blind-271": (40, 21, 1),  # the same
    "blind-272": (40, 27, 12),  # closing questions, sealed until the sixtieth rules
    "blind-273": (40, 26, 5),  # the usual brief, sealed, measured with rules-v60 unchanged
    "blind-274": (40, 24, 5),  # the same
    "blind-275": (40, 25, 2),  # the same
    "blind-276": (40, 25, 2),  # the same
    "blind-277": (40, 18, 0),  # the same
    "blind-278": (40, 21, 3),  # the same
    "blind-279": (40, 23, 4),  # closing questions, sealed, measured with rules-v60 unchanged
    "blind-280": (40, 21, 5),  # the same
}
PAGING = ROOT / "examples" / "offline-detection-paging.json"
#: set -> (paging TP, paging FP): the paging file on the held-out sets and the batch sealed for it.
PAGING_EXPECTED = {
    "blind-6": (21, 0),
    "blind-8": (8, 7),
    "blind-10": (12, 4),
    "blind-185": (16, 2),
    "blind-186": (16, 0),
    "blind-187": (15, 0),
    "blind-188": (16, 3),
    "blind-189": (17, 2),
    "blind-190": (22, 1),
    "blind-191": (19, 1),
    "blind-192": (16, 1),
    "blind-193": (18, 2),
    "blind-194": (20, 0),
    "blind-195": (17, 0),
    "blind-196": (16, 2),
    "blind-197": (23, 1),
    "blind-198": (16, 1),
    "blind-199": (22, 3),
    "blind-200": (15, 2),
    "blind-201": (20, 1),
    "blind-202": (18, 0),
    "blind-203": (14, 1),
    "blind-204": (18, 2),
    "blind-205": (16, 1),
    "blind-206": (13, 0),
    "blind-207": (17, 1),
    "blind-208": (19, 1),
    "blind-209": (14, 1),
    "blind-210": (15, 1),
    "blind-211": (15, 2),
    "blind-212": (13, 1),
    "blind-213": (14, 1),
    "blind-214": (18, 1),
    "blind-215": (17, 0),
    "blind-216": (20, 0),
    "blind-217": (17, 3),
    "blind-218": (17, 2),
    "blind-219": (15, 0),
    "blind-220": (17, 1),
    "blind-221": (18, 0),
    "blind-222": (18, 0),
    "blind-223": (17, 1),
    "blind-224": (15, 1),
    "blind-225": (17, 0),
    "blind-226": (15, 1),
    "blind-227": (22, 2),
    "blind-228": (17, 1),
    "blind-229": (17, 1),
    "blind-230": (17, 1),
    "blind-231": (17, 0),
    "blind-232": (18, 3),
    "blind-233": (17, 1),
    "blind-234": (12, 0),
    "blind-235": (20, 0),
    "blind-236": (18, 0),
    "blind-237": (17, 0),
    "blind-238": (18, 2),
    "blind-239": (14, 1),
    "blind-240": (15, 1),
    "blind-241": (16, 1),
    "blind-242": (17, 1),
    "blind-243": (15, 0),
    "blind-244": (18, 1),
    "blind-245": (15, 0),
    "blind-246": (21, 2),
    "blind-247": (19, 0),
    "blind-248": (16, 2),
    "blind-249": (16, 2),
    "blind-250": (18, 0),
    "blind-251": (20, 1),
    "blind-252": (19, 0),
    "blind-253": (16, 2),
    "blind-254": (14, 1),
    "blind-255": (19, 2),
    "blind-256": (16, 2),
    "blind-257": (16, 1),
    "blind-258": (17, 2),
    "blind-259": (16, 0),
    "blind-260": (17, 0),
    "blind-261": (16, 0),
    "blind-262": (15, 0),
    "blind-263": (19, 0),
    "blind-264": (18, 0),
    "blind-265": (14, 3),
    "blind-266": (15, 1),
    "blind-267": (17, 4),
    "blind-268": (18, 3),
    "blind-269": (14, 5),
    "blind-270": (17, 2),
    "blind-271": (16, 0),
    "blind-272": (17, 6),
    "blind-273": (21, 4),
    "blind-274": (20, 2),
    "blind-275": (15, 1),
    "blind-276": (19, 2),
    "blind-277": (12, 0),
    "blind-278": (16, 3),
    "blind-279": (16, 2),
    "blind-280": (13, 2),
}


def agent_runs_of(origin: str) -> list[LabelledRun]:
    """One set's cases, each as its grounded and its altered run."""
    cases = [
        c for c in json.loads(AGENT_CASES.read_text(encoding="utf-8"))["cases"]
        if c["set"] == origin
    ]
    return [
        run for c in cases for run in (
            LabelledRun(c["grounded"], c["tool_output"], False),
            LabelledRun(c["altered"], c["tool_output"], True),
        )
    ]


@pytest.mark.parametrize("origin", sorted(AGENT_EXPECTED))
def test_detection_on_the_agent_style_cases(origin: str) -> None:
    pairs, tp, fp = AGENT_EXPECTED[origin]
    runs = agent_runs_of(origin)
    assert len(runs) == 2 * pairs
    recommended, _ = send_runs(runs, {"settings_file": str(RECOMMENDED)})
    found = detection(recommended, RunFlags.alert.fget)  # type: ignore[attr-defined]
    assert (found.true_positives, found.false_positives) == (tp, fp)


@pytest.mark.parametrize("origin", sorted(PAGING_EXPECTED))
def test_the_paging_file_pages_on_a_part_of_the_recommended_flags(origin: str) -> None:
    tp, fp = PAGING_EXPECTED[origin]
    runs = agent_runs_of(origin)
    recommended, _ = send_runs(runs, {"settings_file": str(RECOMMENDED)})
    paging, _ = send_runs(runs, {"settings_file": str(PAGING)})
    found = detection(paging, RunFlags.alert.fget)  # type: ignore[attr-defined]
    assert (found.true_positives, found.false_positives) == (tp, fp)
    # the same judgement, its flag narrowed: the rate never moves, no flag is added
    assert [f.judge_rate for f in paging] == [f.judge_rate for f in recommended]
    assert all(r.alert for p, r in zip(paging, recommended, strict=True) if p.alert)
