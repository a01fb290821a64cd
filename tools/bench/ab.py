#!/usr/bin/env python3
"""tools/bench/ab.py [OUT] - 汇总 tools/bench/ab.sh 的输出：每种的 t_min、t_typical 中位数（范围），
burn 比 base 慢了多少、折合每条指令多少纳秒（往返 = 2 × 单程），nsir 的每条指令纳秒数"""
import collections
import statistics
import sys

out = sys.argv[1] if len(sys.argv) > 1 else 'logs/ab'
rows = collections.defaultdict(lambda: ([], []))
for line in open(out + '/ab.csv'):
    t, v, _, a, b = line.strip().split(',')
    if a and b:
        rows[(t, v)][0].append(float(a))
        rows[(t, v)][1].append(float(b))
burn_ir = 0
for line in open(out + '/ab-ir.txt'):
    if line.startswith('burn_ir_per_rep'):
        burn_ir = int(line.split()[1])
med = {k: (statistics.median(a), statistics.median(b)) for k, (a, b) in rows.items()}
print('| test | 哪种 | t_min（范围） | t_typical（范围） | 次数 |')
print('|---|---|---:|---:|---:|')
for (t, v), (a, b) in sorted(rows.items()):
    print('| %s | %s | %.2f (%.2f..%.2f) | %.2f (%.2f..%.2f) | %d |' % (
        t, v, statistics.median(a), min(a), max(a), statistics.median(b), min(b), max(b), len(a)))
nburn = 40
for line in open(out + '/ab-ir.txt'):
    if line.startswith('burn_reps'):
        nburn = int(line.split()[1])
for t in sorted({t for t, _ in rows}):
    base, burn, tsc, pt = (med.get((t, v)) for v in ('base', 'burn', 'tsc', 'perftest'))
    if base and burn:
        extra = nburn * burn_ir
        print('%s: burn 多 %d 条/迭代；t_min +%.2f µs、t_typical +%.2f µs → 往返里每条 %.2f / %.2f ns' % (
            t, extra, burn[0] - base[0], burn[1] - base[1], 2e3 * (burn[0] - base[0]) / extra,
            2e3 * (burn[1] - base[1]) / extra))
    if base and tsc:
        print('%s: tsc 比 base t_min %+.2f µs、t_typical %+.2f µs' % (t, tsc[0] - base[0], tsc[1] - base[1]))
    if base and pt:
        print('%s: base/perftest t_min %.3f、t_typical %.3f；tsc/perftest %.3f、%.3f' % (
            t, base[0] / pt[0], base[1] / pt[1], (tsc or base)[0] / pt[0], (tsc or base)[1] / pt[1]))
ns = collections.defaultdict(list)
ir = {}
for line in open(out + '/nsir.txt'):
    f = line.split()
    if f[0] == 'ir':
        ir[(f[1], int(f[2]))] = int(f[3])
    elif f[0] in ('work', 'poll', 'clock', 'tsc'):
        ns[f[0]].append(float(f[2]))
for m in ('work', 'poll', 'clock', 'tsc'):
    if not ns[m]:
        continue
    line = 'nsir %s: %.1f ns（%s）' % (m, statistics.median(ns[m]), ', '.join('%.1f' % x for x in ns[m]))
    ks = sorted(k for mm, k in ir if mm == m)
    if len(ks) == 2:
        per = (ir[(m, ks[1])] - ir[(m, ks[0])]) / (ks[1] - ks[0])
        line += '；%.0f 条 → %.2f ns/条' % (per, statistics.median(ns[m]) / per)
    print(line)
