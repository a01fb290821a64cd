#!/usr/bin/env python3
"""tools/bench/cgfuncs.py DIR | A.cg B.cg - 计时循环每次迭代的用户态指令数（tools/bench/ir.sh 的输出）

DIR：计数表，send/write × 客户端/服务端（以及两端都在 callgrind 下）× 本项目/perftest，300 和 600 轮各一个数：
每次迭代的空 ibv_poll_cq 次数和自旋圈数（在 callgrind 下；它把被量的一端拖慢，圈数和真跑时不同）、空轮询一圈和
自旋一圈的指令数、循环里的指令数，以及去掉空转之后的工作（= 循环里的 − 空 poll 数 × 一圈 − 自旋圈数 × 一圈）。
A.cg B.cg：同一个程序 N1、N2 轮的两次运行之差，按函数列出每次迭代的指令数和调用次数。

迭代次数：本项目的 --bench lat 在计时之前还有预热（bench.c 的 warmup_count：iters/10+1 次），300/600 轮是 331/661 次：
一次迭代全部内联在 lat_steps 里（预热、计时各调用它一次），每次迭代正好投递一个 WR，所以数 lat_steps 调用 librxe 的
post_send 的次数（以前的代码每次迭代调用一次 lat_once，数它的调用次数；两种 .cg 都认）；perftest 的 ib_*_lat 没有预热
（perftest_resources.c 的 run_iter_lat_send、run_iter_lat_write 正好 iters 次），用 N。循环里的指令：本项目是 lat_steps 的
包含开销（以前是 lat_once 的包含开销加调用它的函数自己的那部分和它调用的 clock_gettime）；空 poll 的次数是 cq_empty 的调用
次数（CQ 空了就调用一次）；perftest 没有符号、调用边也不全，是 run_iter_lat_* 自己加上每次迭代都
调用的函数。一圈：ir.sh 用 --dump-instr=yes --collect-jumps=yes 跑 callgrind，每条指令的执行次数可知，执行次数
不少于 poll 次数一半的指令算空轮询的一圈，不少于自旋圈数一半的算自旋的一圈（圈数 = 自旋循环里执行最多的条件跳转）。
Debian 的 perftest 和 librxe 没有符号，函数按地址命名；librxe 的三个入口见 RXE（从本项目有符号的调用者认出来的）。
"""
import collections
import os
import re
import sys

RXE = {'0x0000000000002ca0': 'poll_cq', '0x0000000000003cc0': 'post_send', '0x0000000000004370': 'post_recv'}
TURN = 4.0   # 每次迭代执行这么多次以上的指令算空转的一部分（callgrind 下每次迭代空轮询十几到几百圈）


class Prof:
    def __init__(self, path):
        self.ir = collections.Counter()        # (fn, addr) -> self Ir（= 执行次数）
        self.calls = collections.Counter()     # (caller, callee) -> 次数
        self.incl = collections.Counter()      # (caller, callee) -> 包含开销
        self.jumps = collections.Counter()     # (fn, addr) -> 条件跳转执行次数
        names = {'fn': {}, 'ob': {}}
        npos, ob, fn, cob, cfn, last, pend, incall = 1, '', '', None, None, 0, None, None

        def name(kind, s):
            m = re.match(r'\((\d+)\)(?:\s+(.*))?', s)
            if not m:
                return s
            if m.group(2):
                names[kind][m.group(1)] = m.group(2)
            return names[kind].get(m.group(1), '?')

        def pos(tok):
            nonlocal last
            if tok == '*':
                return last
            if tok[0] in '+-':
                last += int(tok, 0)
            else:
                last = int(tok, 0)
            return last

        for line in open(path):
            line = line.rstrip('\n')
            if line.startswith('positions:'):
                npos = len(line.split()) - 1
            elif line.startswith('ob='):
                ob = name('ob', line[3:]).split('/')[-1]
            elif line.startswith('fn='):
                fn = name('fn', line[3:]) + ' @' + ob
            elif line.startswith('cob='):
                cob = name('ob', line[4:]).split('/')[-1]
            elif line.startswith('cfn='):
                cfn = name('fn', line[4:])
            elif line.startswith('calls='):
                callee = cfn + ' @' + (cob or ob)
                self.calls[(fn, callee)] += int(line[6:].split()[0])
                cob, incall = None, callee
            elif line.startswith('jcnd='):
                pend = int(line[5:].split('/')[0])
            elif line.startswith('jump='):
                pend = None
            elif re.match(r'^(0x[0-9a-f]+|[+-]\d+|\*)', line):
                parts = line.split()
                a = pos(parts[0])
                if pend is not None:       # 跳转的源位置（后面没有开销）
                    self.jumps[(fn, a)] += pend
                    pend = None
                elif incall:               # 调用的包含开销，不是自己的
                    if len(parts) > npos:
                        self.incl[(fn, incall)] += int(parts[npos])
                    incall = False
                elif len(parts) > npos:
                    self.ir[(fn, a)] += int(parts[npos])

    def called(self, callee):
        return sum(n for (a, b), n in self.calls.items() if b == callee)


def fname(key):
    f, ob = key.split(' @')
    return ('librxe:' + RXE[f]) if 'librxe' in ob and f in RXE else key


def reach(p, roots, skip=()):
    seen, todo = set(roots), list(roots)
    while todo:
        f = todo.pop()
        for (a, b) in p.calls:
            if a == f and b not in seen and b not in skip and not b.startswith('msort') and 'qsort' not in b:
                seen.add(b)
                todo.append(b)
    return seen


def find(p, short):
    return [f for f in {k[0] for k in p.ir} | {b for (_, b) in p.calls} if f.split(' @')[0] == short]


def loop_of(p, ours):
    """计时循环的函数：本项目是 lat_steps（一次迭代全部内联在里面；以前的代码每次迭代调用一次 lat_once）"""
    if ours:
        return find(p, 'lat_once') or find(p, 'lat_steps')
    poll = [f for f in find(p, RXE_ADDR['poll_cq']) if 'librxe' in f]
    callers = collections.Counter({x: n for (x, y), n in p.calls.items() if y in poll})
    return [callers.most_common(1)[0][0]]


RXE_ADDR = {v: k for k, v in RXE.items()}


def loop_host(p):
    """以前的代码：计时循环所在的函数，调用 lat_once 的那个（lat_loop；更早内联进了 bench_size）。现在循环就在 lat_steps 里，没有"""
    if not find(p, 'lat_once'):
        return []
    roots = loop_of(p, True)
    return list({x for (x, y) in p.calls if y in roots})


def iters_ours(p):
    """本项目的迭代次数：以前是 lat_once 的调用次数；现在是 lat_steps 调用 librxe 的 post_send 的次数（每次迭代正好投递一个 WR）"""
    if find(p, 'lat_once'):
        return sum(p.called(f) for f in find(p, 'lat_once'))
    post = [f for f in find(p, RXE_ADDR['post_send']) if 'librxe' in f]
    return sum(n for (x, y), n in p.calls.items() if x in loop_of(p, True) and y in post)


def empty_polls_ours(p):
    """本项目的空 poll 次数：现在 CQ 空了就调用一次 cq_empty（bench_lat.c；一次也没空过时没有这个调用边）；以前的代码返回 None"""
    if find(p, 'lat_once'):
        return None
    fs = [f for f in {b for (_, b) in p.calls} if f.split(' @')[0].split('.')[0] == 'cq_empty']
    return sum(p.called(f) for f in fs)


def incl_into(p, f):
    return sum(v for (x, y), v in p.incl.items() if y == f)


def run_account(p, ours, n, op, bench_self, pt_fns=()):
    """一次运行：循环里每次迭代的指令数（调用边的包含开销，不含建连）、ibv_poll_cq 次数、自旋圈数、各条指令的执行次数"""
    roots = loop_of(p, ours)
    if ours:
        it = iters_ours(p)
        bs = loop_host(p)
        total = sum(incl_into(p, f) for f in roots) + sum(v for (x, y), v in p.incl.items()
                                                         if x in bs and y.startswith('clock_gettime'))
        total = total / it + bench_self
        spinfns = roots + [f for f in {k[0] for k in p.ir} if f.startswith('spin_for_stamp')]
    else:
        # perftest：没有符号，callgrind 的调用边也不全（librxe 里的尾调用算到了别的函数头上），所以按自身开销加总：
        # run_iter_lat_* 自己加上两次运行里每次迭代都调用的函数（pt_fns），不算排序；这些函数在建连时的调用
        # （memcpy 等）也算进去了：约 2000–4000 条，300 轮时每次迭代多算 7–14 条，600 轮时一半
        it = n
        total = sum(v for k, v in p.ir.items() if k[0] in pt_fns) / it
        spinfns = roots
        fns = pt_fns
    if ours:
        fns = reach(p, roots)
    poll = [f for f in find(p, RXE_ADDR['poll_cq']) if 'librxe' in f]
    C = sum(p.calls[(x, y)] for (x, y) in p.calls if y in poll and x in fns) / it
    # 取到了东西的 poll：现在 = 全部 poll − 空 poll（cq_empty 的调用次数）；以前的代码每次取到东西调用 poll_cq_took 或 took_wcs
    if ours:
        empty = empty_polls_ours(p)
        NE = C - empty / it if empty is not None else sum(p.called(f) for f in find(p, 'poll_cq_took') + find(p, 'took_wcs')) / it
    else:
        NE = 1.0 if op == 'write' else 2.0
    S = 0.0
    if op == 'write':
        js = [v for (f, a), v in p.jumps.items() if f in spinfns and abs(v / it - C) > 0.03 * C + 0.1]
        S = max(js, default=0) / it
    ex = {k: v / it for k, v in p.ir.items() if k[0] in fns}
    spin_ir = sum(v for k, v in ex.items() if k[0] in spinfns and S >= 4 and v >= 0.5 * S)
    poll_ir = sum(v for k, v in ex.items() if C - NE >= 4 and v >= 0.5 * C and not (k[0] in spinfns and S >= 4 and v >= 0.5 * S))
    return dict(it=it, total=total, C=C, NE=NE, S=S,
                c_poll=poll_ir / C if C - NE >= 4 else None, c_spin=spin_ir / S if S >= 4 else None)


def bench_self_delta(a, b, ours):
    """循环所在的函数自己的（计时循环本身、now_sec 的换算、心跳检查）：两次运行之差 / lat_once 次数之差"""
    if not ours:
        return 0.0
    bs = loop_host(b)
    if not bs:
        return 0.0   # 现在循环就在 lat_steps 里，它的包含开销已经全算了
    da = sum(v for k, v in a.ir.items() if k[0] in bs)
    db = sum(v for k, v in b.ir.items() if k[0] in bs)
    dn = iters_ours(b) - iters_ours(a)
    return (db - da) / dn


def cell(path, prog, op, suf, n1, n2, costs):
    fa = os.path.join(path, '%s-%s-%d%s.cg' % (prog, op, n1, suf))
    fb = os.path.join(path, '%s-%s-%d%s.cg' % (prog, op, n2, suf))
    if not (os.path.exists(fa) and os.path.exists(fb)):
        return None
    a, b = Prof(fa), Prof(fb)
    ours = prog == 'ours'
    if ours and (iters_ours(a) == 0 or iters_ours(b) == 0):   # 那次运行没走到计时循环（看 .c.log/.s.log）：不算，说出来
        print('# %s %s%s：%s 里没有一次迭代，这一格不算（运行失败？看同名的 .c.log、.s.log）'
              % (prog, op, suf, fa if iters_ours(a) == 0 else fb), file=sys.stderr)
        return None
    bself = bench_self_delta(a, b, ours)
    pt_fns = set()
    if not ours:
        lf = loop_of(b, False)[0]
        srt = lambda x: x.startswith('msort') or 'qsort' in x
        sorting = {y for (x, y) in b.calls if srt(x)} - {y for (x, y) in b.calls if not srt(x)}
        # 每次迭代都调用的：调用次数随轮数增长的；空轮询的函数（librxe 的 poll 和自旋锁）次数随空转变，单独算进来
        turnf = lambda f: (RXE_ADDR['poll_cq'] in f and 'librxe' in f) or f.startswith('pthread_spin')
        pt_fns = {f for f in {y for (_, y) in b.calls} if ((b.called(f) - a.called(f)) / (n2 - n1) >= 0.3 or turnf(f))
                  and f not in sorting and not f.startswith('msort')} | {lf}
        # 不算只被 run_iter_lat_* 开头调一次的函数（get_cpu_mhz）用到的：它读 gettimeofday 的次数随时间变
        once = reach(b, [y for (x, y), c in b.calls.items() if x == lf and c < 0.3 * n2])
        pt_fns -= {f for f in once if all(x in once for (x, y) in b.calls if y == f)}
    rs = [run_account(a, ours, n1, op, bself, pt_fns), run_account(b, ours, n2, op, bself, pt_fns)]
    for r in rs:
        for k in ('c_poll', 'c_spin'):
            if r[k] is not None:
                costs.setdefault((prog, op, suf, k), []).append((r['C'] - r['NE'] if k == 'c_poll' else r['S'], r[k]))
    return rs


def table(path):
    runs = {re.match(r'ours-send-(\d+)\.cg$', f) for f in os.listdir(path)}
    n1, n2 = sorted(int(m.group(1)) for m in runs if m)
    costs, rows = {}, []
    for op in ('send', 'write'):
        for side, suf in (('客户端', ''), ('服务端', '.srv'), ('两端都在 callgrind 下，客户端', '.both'),
                          ('两端都在 callgrind 下，服务端', '.both.srv')):
            for prog in ('ours', 'pt'):
                rs = cell(path, prog, op, suf, n1, n2, costs)
                if rs:
                    rows.append((op, side, prog, rs, suf))
    # 一圈的指令数取同一格两次运行里空转多的那次（空转少时分不出哪些指令是一圈的）
    best = {k: max(v)[1] for k, v in costs.items()}
    print('| %d/%d 轮，2 B | 空 poll/迭代 | 自旋圈/迭代 | 空 poll 一圈 | 自旋一圈 | 循环里的指令/迭代 | 去掉空转的工作/迭代 |' % (n1, n2))
    print('|---|---:|---:|---:|---:|---:|---:|')
    for op, side, prog, rs, suf in rows:
        cp, cs = best.get((prog, op, suf, 'c_poll')), best.get((prog, op, suf, 'c_spin'))
        w = [r['total'] - (r['C'] - r['NE']) * (cp or 0) - r['S'] * (cs or 0) for r in rs]
        w = ['%.0f' % x for x in w]
        print('| %s_lat %s，%s | %s | %s | %s | %s | %s | %s |' % (
            op, side, '本项目' if prog == 'ours' else 'perftest',
            ' / '.join('%.1f' % (r['C'] - r['NE']) for r in rs), ' / '.join('%.0f' % r['S'] for r in rs),
            '%.1f' % cp if cp else '—', '%.1f' % cs if cs else '—',
            ' / '.join('%.0f' % r['total'] for r in rs), ' / '.join(w)))


def funcs(fa, fb):
    """按函数：两次运行之差 / 迭代次数之差（本项目按 iters_ours）"""
    a, b = Prof(fa), Prof(fb)
    ours = bool(loop_of(b, True))
    m = re.search(r'-(\d+)[.a-z]*\.cg$', fa), re.search(r'-(\d+)[.a-z]*\.cg$', fb)
    if ours:
        dn = iters_ours(b) - iters_ours(a)
    else:
        dn = int(m[1].group(1)) - int(m[0].group(1))
    fns = reach(b, loop_of(b, ours)) | set(loop_host(b)) | set(find(b, 'clock_gettime@@GLIBC_2.17'))
    byfn = collections.Counter()
    for k, v in b.ir.items():
        if k[0] in fns:
            byfn[k[0]] += (v - a.ir.get(k, 0)) / dn
    print('迭代数之差 %d' % dn)
    for f, v in byfn.most_common(30):
        calls = sum(b.calls[(x, y)] - a.calls.get((x, y), 0) for (x, y) in b.calls if y == f) / dn
        print('%9.1f Ir/iter  %7.2f calls/iter  %s' % (v, calls, fname(f)))


if __name__ == '__main__':
    if len(sys.argv) == 2 and os.path.isdir(sys.argv[1]):
        table(sys.argv[1])
    elif len(sys.argv) == 3:
        funcs(sys.argv[1], sys.argv[2])
    else:
        sys.exit(__doc__)
