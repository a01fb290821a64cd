"""tests/lib/tap.py - Python 写的检查脚本共用的 check（tests/22-host-names.t 检查没有别的副本）。

    import tap                  # 脚本先把 tests/lib 放进 sys.path
    check = tap.Checks()
    check(cond, "what", "detail shown when it fails")
    return check.exit_code()    # 1 if any check failed

每个检查打印一行 "ok what" 或 "not ok what: detail"；调用它的 .t 把这些行编号成 TAP（tap_lines）。
"""


class Checks:
    def __init__(self):
        self.failed = []

    def __call__(self, cond, what, detail=""):
        cond = bool(cond)
        print(("ok " if cond else "not ok ") + what + ("" if cond or not detail else ": " + str(detail)))
        if not cond:
            self.failed.append(what)
        return cond

    def exit_code(self):
        return 1 if self.failed else 0
