#!/usr/bin/env python3
"""tools/bench/cgfuncs.py A.cg B.cg DN [N2] - per-function instructions per iteration from two callgrind runs

A and B are callgrind output files of the same program run with N1 and N2 = N1 + DN iterations
(tools/bench/ir.sh writes them). Prints, for every function, (self Ir(B) - self Ir(A)) / DN and the
inbound calls per iteration, largest first; then the absolute per-iteration figures of run B (divided by N2).
Functions without symbols (Debian's stripped perftest and librxe) are named by address.
"""
import sys, re, collections
def parse(path):
    fn_names = {}; ob_names = {}; fl_names={}
    selfir = collections.Counter(); calls = collections.Counter()
    cur_fn = None; cur_ob = None; pending_cfn = None; pending_cob=None; incall = False
    def name(tbl, s):
        m = re.match(r'\((\d+)\)(?:\s+(.*))?', s)
        if m:
            if m.group(2): tbl[m.group(1)] = m.group(2)
            return tbl.get(m.group(1), '?')
        return s
    for line in open(path):
        line = line.rstrip('\n')
        if line.startswith('ob='): cur_ob = name(ob_names, line[3:]); continue
        if line.startswith('fn='): cur_fn = name(fn_names, line[3:]) + ' @' + (cur_ob or '').split('/')[-1]; continue
        if line.startswith('cob='): pending_cob = name(ob_names, line[4:]); continue
        if line.startswith('cfn='):
            pending_cfn = name(fn_names, line[4:]); continue
        if line.startswith('calls='):
            n = int(line[6:].split()[0])
            key = pending_cfn + ' @' + ((pending_cob or cur_ob) or '').split('/')[-1]
            calls[key] += n; incall = True; pending_cob=None; continue
        if re.match(r'^[+-]?\d|^\*', line):
            parts = line.split()
            if len(parts) >= 2:
                if incall: incall = False  # inclusive cost line of a call: not self
                else: selfir[cur_fn] += int(parts[1])
            continue
    return selfir, calls
a = parse(sys.argv[1]); b = parse(sys.argv[2]); dn = float(sys.argv[3])
keys = set(a[0]) | set(b[0])
rows = []
for k in keys:
    rows.append((b[0][k]-a[0][k], k, b[1][k]-a[1][k], b[0][k], b[1][k]))
rows.sort(reverse=True)
tot = sum(r[0] for r in rows)
print("delta Ir per iteration total: %.0f" % (tot/dn))
for d, k, dc, ir, c in rows[:25]:
    print("%9.1f Ir/iter  %7.2f calls/iter  %s" % (d/dn, dc/dn, k))
print("--- absolute, run 2 (per iteration of its own N) ---")
N2 = float(sys.argv[4]) if len(sys.argv) > 4 else dn
for k, v in sorted(b[0].items(), key=lambda x: -x[1])[:14]:
    print("%9.1f Ir/iter  %8.2f calls/iter  %s" % (v/N2, b[1][k]/N2, k))
