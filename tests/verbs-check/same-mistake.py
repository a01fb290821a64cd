#!/usr/bin/env python3
"""tests/verbs-check/same-mistake.py EXERCISE_OUTPUT - 同一个错误（RTR 的掩码带了 RTS 的位，练习 3 的样例
tests/exercises/fixtures/3-rtr-mask-forbidden.c）在 make exercise 和 verbs-check 里是同一个 id、字段、消息和原因。
练习专有的提示（在这个练习里用什么，exercises/check/rules.py 的 HINTS）在消息后面的括号里，比较前去掉。"""
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "verbs-check"))
sys.path.insert(0, os.path.join(ROOT, "exercises", "check"))
import cases  # noqa: E402
import rules  # noqa: E402

ex = sys.argv[1]
m = re.search(r"^✗ mistake (\S+) \(field (\S+)\): (.*)$", ex, re.M)
w = re.search(r"^  why: (.*)$", ex, re.M)
if not m or not w:
    sys.exit("no 'mistake ... (field ...)' and 'why:' lines in the exercise output")
ex_id, ex_field, ex_msg, ex_why = m.group(1), m.group(2), m.group(3), w.group(1)
hint = rules.HINTS.get(ex_id, ("", ""))[1]
if hint and ex_msg.endswith(" (%s)" % hint):
    ex_msg = ex_msg[:-len(hint) - 3]

a, b = cases.base()
mask = (cases.STATE | cases.AV | cases.MTU | cases.DQPN | cases.RQ_PSN | cases.DEST_RD | cases.MIN_RNR | cases.SQ_PSN |
        cases.TIMEOUT | cases.RETRY | cases.RNR | cases.RD)
cases.rec(a, "modify_qp", qp_state=2)["mask"] = mask
with tempfile.TemporaryDirectory() as d:
    p = cases.write(d, a)
    out = subprocess.run([cases.VC, "--lang", "en", "--judge", p], capture_output=True, text=True).stderr
print(out)
v = re.search(r"^verbs-check: error (\S+) (\S+) \[.*\]\n    seen: (.*)\n    why: (.*)$", out, re.M)
if not v:
    sys.exit("verbs-check printed no finding")
bad = [(what, x, y) for what, x, y in (("id", ex_id, v.group(1)), ("field", ex_field, v.group(2)),
                                       ("message", ex_msg, v.group(3)), ("reason", ex_why, v.group(4))) if x != y]
for what, x, y in bad:
    print("different %s:\n  make exercise: %s\n  verbs-check:   %s" % (what, x, y))
sys.exit(1 if bad else 0)
