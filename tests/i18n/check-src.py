#!/usr/bin/env python3
"""tests/i18n/check-src.py FILE... - 源码里每一句中文字符串都交给了 gettext 吗？

找出相邻的字符串字面量（中间可以隔着空白、注释和 CON_HINT、PRIu64 这样的宏）连成的一串，
只要其中有中文，它前面就必须是 _( 、N_( 或 P_( ——否则 xgettext 抽不到它，英文运行时会漏出中文。
_Static_assert 的消息是给编译器看的（和注释一样留中文），不算。
每一处没包上的打印 "文件:行: 文字"，有就退出 1。
"""
import re, sys
CJK = re.compile('[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]')
def tokens(s):
    i, n = 0, len(s)
    out = []  # (kind, start, end)
    while i < n:
        c = s[i]
        if s.startswith('//', i):
            j = s.find('\n', i); j = n if j < 0 else j
            out.append(('ws', i, j)); i = j
        elif s.startswith('/*', i):
            j = s.find('*/', i) + 2
            out.append(('ws', i, j)); i = j
        elif c == '"':
            j = i + 1
            while s[j] != '"':
                j += 2 if s[j] == '\\' else 1
            out.append(('str', i, j + 1)); i = j + 1
        elif c == "'":
            j = i + 1
            while s[j] != "'":
                j += 2 if s[j] == '\\' else 1
            out.append(('chr', i, j + 1)); i = j + 1
        elif c.isspace():
            j = i
            while j < n and s[j].isspace(): j += 1
            out.append(('ws', i, j)); i = j
        elif c == '#' and (i == 0 or s[s.rfind('\n', 0, i)+1:i].strip() == ''):
            # preprocessor line (with continuations)
            j = i
            while True:
                k = s.find('\n', j); k = n if k < 0 else k
                if s[k-1] == '\\': j = k + 1; continue
                break
            out.append(('pp', i, k)); i = k
        elif c.isalnum() or c == '_':
            j = i
            while j < n and (s[j].isalnum() or s[j] == '_'): j += 1
            out.append(('id', i, j)); i = j
        else:
            out.append(('p', i, i + 1)); i += 1
    return out
def macro(name): return re.fullmatch(r'CON_HINT|PRI[a-zA-Z0-9]+|SCN[a-zA-Z0-9]+', name) is not None

def enclosing_call(s, sig, k):
    """第 k 个记号所在的那对括号前面的名字（_、P_、_Static_assert…），不在括号里时是空串"""
    depth = 0
    for j in range(k - 1, 0, -1):
        t = s[sig[j][1]:sig[j][2]]
        if t == ')':
            depth += 1
        elif t == '(':
            if depth == 0:
                return s[sig[j - 1][1]:sig[j - 1][2]]
            depth -= 1
    return ''

def unwrapped(s):
    toks = [t for t in tokens(s)]
    sig = [t for t in toks if t[0] != 'ws']          # 去掉空白和注释
    k = 0
    while k < len(sig):
        if sig[k][0] != 'str':
            k += 1
            continue
        last = k
        while last + 1 < len(sig) and (sig[last + 1][0] == 'str' or (sig[last + 1][0] == 'id' and macro(s[sig[last + 1][1]:sig[last + 1][2]]))):
            last += 1
        text = ''.join(s[a:b] for kind, a, b in sig[k:last + 1] if kind == 'str')
        if CJK.search(text):
            # 直接跟在 _( 、N_( 后面；P_ 的第一或第二个参数；_Static_assert 的消息
            prev = s[sig[k - 1][1]:sig[k - 1][2]] if k > 0 else ''
            call = enclosing_call(s, sig, k)
            ok = (prev == '(' and call in ('_', 'N_', 'P_')) or (prev == ',' and call in ('P_', '_Static_assert'))
            if not ok:
                yield s.count('\n', 0, sig[k][1]) + 1, text
        k = last + 1

bad = 0
for path in sys.argv[1:]:
    s = open(path, encoding='utf-8').read()
    for line, text in unwrapped(s):
        bad += 1
        print('%s:%d: %s' % (path, line, text[:80]))
sys.exit(1 if bad else 0)
