#!/usr/bin/env python3
"""tests/i18n/check-po.py FILE.po ... - 每一句都翻译了吗（po/en.po、po/sh/en.po、po/tools/en.po 共用）

规则（和 po 文件开头、docs/DEVELOPING.md 的“翻译控制台文字的规则”说的一样）：msgstr 不空、不是 fuzzy、里面没有中文；\\037（错误和提示的分隔）
个数一样；结尾的换行、开头的空格（控制台上的缩进）和 msgid 一样。有问题的条目逐条打印，退出 1。
English: every entry translated, not fuzzy, no Chinese left in msgstr,
same number of \\037 separators, same trailing newline and same leading spaces as the msgid."""
import re, sys
CJK = re.compile('[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]')
def unq(lines):
    return ''.join(eval(l) if l.startswith('"') else '' for l in lines)  # PO strings are C-like literals
def entries(text):
    for block in text.strip('\n').split('\n\n'):
        lines = block.split('\n')
        fuzzy = any(l.startswith('#,') and 'fuzzy' in l for l in lines)
        cur = None; parts = {}
        for l in lines:
            m = re.match(r'^(msgid|msgid_plural|msgstr(?:\[\d\])?) (".*")$', l)
            if m: cur = m.group(1); parts[cur] = [m.group(2)]
            elif l.startswith('"') and cur: parts[cur].append(l)
        if 'msgid' in parts:
            yield block, fuzzy, {k: unq(v) for k, v in parts.items()}
bad = 0; n = 0
for path in sys.argv[1:]:
    for block, fuzzy, p in entries(open(path, encoding='utf-8').read()):
        mid = p['msgid']
        if mid == '': continue
        n += 1
        strs = [v for k, v in p.items() if k.startswith('msgstr')]
        why = []
        if fuzzy: why.append('fuzzy')
        for s in strs:
            if s == '': why.append('empty msgstr')
            elif CJK.search(s): why.append('Chinese left in msgstr: ' + ''.join(CJK.findall(s))[:20])
            if s.count('\x1f') != mid.count('\x1f'): why.append('\\037 count differs')
            if s.endswith('\n') != mid.endswith('\n'): why.append('trailing \\n differs')
            lead = len(mid) - len(mid.lstrip(' ')); lead2 = len(s) - len(s.lstrip(' '))
            if s and lead != lead2: why.append('leading spaces %d vs %d' % (lead, lead2))
        if why:
            bad += 1
            print('%s: %s\n    msgid: %r' % (path, '; '.join(sorted(set(why))), mid[:100]))
print('%d entries, %d with problems' % (n, bad))
sys.exit(1 if bad else 0)
