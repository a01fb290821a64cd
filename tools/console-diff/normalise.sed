# tools/console-diff/normalise.sed - 规整（sed -E）：每次运行都不同的值换成占位符，文字不动
s/fe80:[0-9a-f:]+/fe80:…/g
s/(PSN |psn=)0x[0-9a-f]+/\10x…/g
s/(QP号:? |qp_num=)0x[0-9a-f]+/\10x…/g
s/(rkey[ =]|lkey[ =])0x[0-9a-f]+/\10x…/g
s/0x[0-9a-f]{12,16}/0x…/g
s/用时 [0-9.]+ 秒/用时 … 秒/g
