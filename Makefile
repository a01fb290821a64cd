# RoCEv2 learn - GNU Make 构建脚本
#   make            编译 build/rdma_server 与 build/rdma_client
#   make test       单元测试 + Soft-RoCE 实验室（qemu 里的真实 rdma_rxe）测试
#   make demo       在实验室里跑一遍服务端/客户端，显示两边的带注释输出
#   make help       查看全部目标

# GNU 约定：CC、CFLAGS、CPPFLAGS、LDFLAGS、LDLIBS 留给使用者（make CFLAGS="-O0 -g" 就是调试版）。
# 项目必需的参数放在 ROCE_* 里，永远生效；使用者的参数排在后面，所以 -Wno-error 之类仍然管用。
CC      ?= cc
CFLAGS  ?= -O2 -g
ROCE_CPPFLAGS := -D_GNU_SOURCE -Isrc
ROCE_CFLAGS   := -std=c11 -Wall -Wextra -Werror -pthread
IBV_CFLAGS := $(shell pkg-config --cflags libibverbs 2>/dev/null)
IBV_LIBS   := $(shell pkg-config --libs libibverbs 2>/dev/null || echo -libverbs)
# librdmacm（--cm 模式：rdma_create_id/rdma_connect …），包 librdmacm-dev
CM_LIBS    := $(shell pkg-config --libs librdmacm 2>/dev/null || echo -lrdmacm)
# 所有编译/链接命令都用这两个变量（SAN_FLAGS 只在 make asan 时非空）
ALL_CFLAGS  = $(ROCE_CPPFLAGS) $(IBV_CFLAGS) $(ROCE_CFLAGS) $(SAN_FLAGS) $(CPPFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(ROCE_CFLAGS) $(SAN_FLAGS) $(CFLAGS) $(LDFLAGS)

# 输出目录；make asan 用 BUILD=build/asan 另起一套，不和 build/ 里的普通版本混在一起
BUILD   ?= build
OBJDIR  := $(BUILD)/obj
# 源码：src/ 下的四个课程文件（rdma_common.h/.c、rdma_server.c、rdma_client.c），其余按层放在子目录里
# （docs/PROJECT.md 有地图）。下面的列表是递归找出来的：新加的 .c 不用登记就会编译进两个程序
SRC_ALL := $(sort $(shell find src -name '*.c'))
HDRS    := $(sort $(shell find src -name '*.h'))
DRIVERS := src/rdma_server.c src/rdma_client.c
# 两个程序共有的全部模块（= 除了两个 main 之外的每个 .c）
CORE    := $(patsubst src/%.c,%,$(filter-out $(DRIVERS),$(SRC_ALL)))
CORE_OBJS := $(addprefix $(OBJDIR)/,$(addsuffix .o,$(CORE)))
# 单元测试链接哪些模块不用手写：全部模块打成一个静态库 $(CORE_LIB)，链接器只取单元测试用到的符号所在的 .o
# （以及它们再用到的）。链接时不给 -libverbs，所以被取进来的模块必须是纯逻辑的（不调用 libibverbs/librdmacm）：
# 哪个测试用到的模块一调用 ibv_*，单元测试就链接失败并说出那个符号。取进来的是哪些：make print-pure
CORE_LIB  := $(BUILD)/libroce-core.a
TEST_BINS := $(BUILD)/test/rdma_server $(BUILD)/test/rdma_client
UNIT_SRCS := $(wildcard tests/unit/*.c)
UNIT_OBJS := $(patsubst tests/unit/%.c,$(OBJDIR)/unit/%.o,$(UNIT_SRCS))

# AddressSanitizer + UndefinedBehaviorSanitizer 版本（make asan）：默认用 clang 编译
ASAN_CC    ?= clang
ASAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

TOPOLOGY ?= single
# 语言跟着宿主机的环境走进实验室（LANG=en_US.UTF-8 make demo 就是英文的演示；make test 在 tests/prove-all.sh 里固定成中文）
LOCALE_ENV := LANG LANGUAGE LC_ALL LC_MESSAGES
# 实验室启动哪个 Debian 内核：5.10（Debian 11）| 6.1（Debian 12，默认）| 6.12（Debian 13）。
# 所有实验室入口（demo、shell、test、trace、bench，以及直接运行的 lab/run）都看它；lab/setup 按它准备缓存
LAB_KERNEL ?= 6.1
export LAB_KERNEL
# RoCE 链路上的损伤（tc netem，两个方向）：make demo NETEM="loss 1%"、make shell NETEM="delay 20ms 5ms"。
# 空 = 没有损伤；lab/README.md 参数表的 LAB_NETEM 一行，每种损伤的样子见 docs/LOSS.md
NETEM ?=
export LAB_NETEM ?= $(NETEM)

.PHONY: verbs-check verbs-check-lab exercise exercises exercise-reset exercise-objs exercise-objs-here exercise-matrix print-sources print-pure check all locale po clean rebuild help test test-kernels test-stock test-cloud stock-images memcheck unit asan mutation soak demo trace trace-render trace-screenshot gallery gallery-docs shell lab-setup check-deps docs-excerpts bench lossy loss-vs-tcp fuzz impair loss-recovery console-diff bench-ab ir

all: $(BUILD)/rdma_server $(BUILD)/rdma_client $(TEST_BINS) locale verbs-check

# 英文界面（--lang en 或 LANG=en_US.UTF-8，见 src/console/i18n.h）：msgfmt 把 po/ 里的译文编译成 build/locale/en/LC_MESSAGES/*.mo，
# 程序和脚本按自己的位置找到它（build/rdma_server → build/locale）。三个文本域：程序（po/en.po）、
# diagnose.sh/show_gids.sh（po/sh/en.po）、画页面的工具（po/tools/en.po）。make po 重新抽取要翻译的句子
LOCALE_DIR := $(BUILD)/locale/en/LC_MESSAGES
MO_FILES   := $(LOCALE_DIR)/rocev2-learn.mo $(if $(wildcard po/sh/en.po),$(LOCALE_DIR)/rocev2-learn-sh.mo) \
              $(if $(wildcard po/tools/en.po),$(LOCALE_DIR)/rocev2-learn-tools.mo)
locale: $(MO_FILES)

$(LOCALE_DIR)/rocev2-learn.mo: po/en.po | check-deps
	@mkdir -p $(dir $@)
	msgfmt --check -o $@ $<

$(LOCALE_DIR)/rocev2-learn-%.mo: po/%/en.po | check-deps
	@mkdir -p $(dir $@)
	msgfmt --check -o $@ $<

po:
	po/extract
	$(if $(wildcard po/sh/extract),po/sh/extract)
	$(if $(wildcard po/tools/extract),po/tools/extract)

# libibverbs 的 pkg-config 版本是 1.<ABI>.<rdma-core 版本>：ibv_query_gid_table 从 rdma-core v32（1.11.32）开始才有
IBV_MIN_VERSION := 1.11.32

# 第一项：这个克隆里 build/、logs/ 你能写吗（以前用 sudo 运行过 make 会留下属于 root 的文件；lab/check-clone 说出修复的命令）
check-deps:
	@bash lab/check-clone
	@pkg-config --exists libibverbs || { echo "错误: 找不到 libibverbs（pkg-config libibverbs）。安装: sudo apt-get install libibverbs-dev pkg-config" >&2; echo "error: libibverbs not found (pkg-config libibverbs). Install: sudo apt-get install libibverbs-dev pkg-config" >&2; exit 1; }
	@pkg-config --atleast-version=$(IBV_MIN_VERSION) libibverbs || { echo "错误: libibverbs $$(pkg-config --modversion libibverbs) 太旧：需要 rdma-core ≥ v32（libibverbs ≥ $(IBV_MIN_VERSION)，有 ibv_query_gid_table）。Ubuntu ≥ 22.04、Debian ≥ 11 自带的就够；更老的系统请升级 rdma-core" >&2; echo "error: libibverbs $$(pkg-config --modversion libibverbs) is too old: rdma-core >= v32 is needed (libibverbs >= $(IBV_MIN_VERSION), with ibv_query_gid_table). Ubuntu >= 22.04 and Debian >= 11 ship a new enough one; upgrade rdma-core on older systems" >&2; exit 1; }
	@command -v msgfmt >/dev/null || { echo "错误: 找不到 msgfmt（英文界面的消息目录要用它编译）。安装: sudo apt-get install gettext" >&2; echo "error: msgfmt not found (it compiles the English message catalog). Install: sudo apt-get install gettext" >&2; exit 1; }
	@pkg-config --exists librdmacm || { echo "错误: 找不到 librdmacm（pkg-config librdmacm；--cm 模式要链接它）。安装: sudo apt-get install librdmacm-dev" >&2; echo "error: librdmacm not found (pkg-config librdmacm; --cm links it). Install: sudo apt-get install librdmacm-dev" >&2; exit 1; }

# 头文件依赖由编译器生成（-MMD -MP → 每个 .o 旁边一个 .d）：改一个 .h 只重编真正包含它的 .c
DEP_FLAGS := -MMD -MP
$(OBJDIR)/%.o: src/%.c | check-deps
	@mkdir -p $(dir $@)
	$(CC) $(DEP_FLAGS) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/rdma_server: $(OBJDIR)/rdma_server.o $(CORE_OBJS)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CM_LIBS) $(IBV_LIBS) -lm $(LDLIBS)

$(BUILD)/rdma_client: $(OBJDIR)/rdma_client.o $(CORE_OBJS)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CM_LIBS) $(IBV_LIBS) -lm $(LDLIBS)

# verbs-check（issue 57，docs/VERBS-CHECK.md）：任何 verbs 程序在记录器（LD_PRELOAD 的 libverbs-check.so）下运行，
# 判断在 Python 里（tools/verbs-check/，规则和练习共用 exercises/check/verbs_rules.py）。记录器不链接 libibverbs：
# 真正的函数在运行时按符号版本找（dlvsym），没有用 verbs 的进程里它什么也不做
VC_DIR := tools/verbs-check
verbs-check: $(BUILD)/verbs-check $(BUILD)/libverbs-check.so

# 路径检查（源 GID 的网卡和到对端的路由）用程序自己的 src/verbs/route_lookup.c，一起编进去；-fvisibility=hidden：
# 预载库只导出 verbs 的包装（EXPORT），它的 route_lookup 不会顶替被检查的程序里同名的函数
$(BUILD)/libverbs-check.so: $(VC_DIR)/recorder.c src/verbs/route_lookup.c src/verbs/route_lookup.h src/verbs/gid.h \
                            src/control/wire.h src/console/i18n.h | check-deps
	@mkdir -p $(dir $@)
	$(CC) $(ROCE_CPPFLAGS) $(IBV_CFLAGS) $(ROCE_CFLAGS) $(CPPFLAGS) $(CFLAGS) -fPIC -fvisibility=hidden -shared -o $@ \
		$(filter %.c,$^) -ldl $(LDFLAGS)

# 实验室里的全套（不在 make test 里，约 15 分钟）：ibv_rc/ud/srq_pingpong -g 1、rc_pingpong 不带 -g、我们的默认一对、
# 每种改变 verbs 调用的 --inject、--bench lat 有没有 verbs-check 的中位延迟；每个用例的输出在 logs/verbs-check-lab/
VC_LAB_CASES := rc rc-nogrh ud srq ours ours-cm inject:qpn inject:psn inject:rkey inject:mr-access inject:qp-access \
                inject:lkey inject:inline inject:small-recv inject:flush inject:rnr-retry0 bench
verbs-check-lab: all $(BUILD)/tests/vc-depth
	lab/run bash tests/verbs-check/lab-run.sh logs/verbs-check-lab $(VC_LAB_CASES)
	lab/run bash tests/verbs-check/lab-provoke.sh logs/verbs-check-lab/provoke
	@mkdir -p logs/verbs-check-lab
	LAB_TOPOLOGY=two-vms lab/run bash tests/verbs-check/two-vms-wrong-nic.sh logs/verbs-check-lab/two-vms | tee logs/verbs-check-lab/two-vms.out
	grep -q '^RESULT wrong-ndev ok' logs/verbs-check-lab/two-vms.out

# 一个故意犯深度错误的小程序（tests/verbs-check/vc-depth.c）：verbs-check 的深度规则在真实的 rxe 上各触发一次
$(BUILD)/tests/vc-depth: tests/verbs-check/vc-depth.c | check-deps
	@mkdir -p $(dir $@)
	$(CC) $(ROCE_CPPFLAGS) $(IBV_CFLAGS) $(ROCE_CFLAGS) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(IBV_LIBS) $(LDFLAGS)

$(BUILD)/verbs-check: $(VC_DIR)/verbs-check
	@mkdir -p $(dir $@)
	cp $< $@ && chmod +x $@
# 测试版的程序：同样的模块，多链接 tests/plugins/ 里的测试插件（它定义 program/program.h 的弱符号 program_test_plugins，
# 比如每发一个同步消息就停一下，tests/lab/ops.bats 用它）。正常的程序里没有测试插件，也不读它们的环境变量
TEST_PLUGIN_OBJS := $(patsubst tests/plugins/%.c,$(OBJDIR)/testplug/%.o,$(wildcard tests/plugins/*.c))
$(OBJDIR)/testplug/%.o: tests/plugins/%.c
	@mkdir -p $(dir $@)
	$(CC) $(DEP_FLAGS) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/test/rdma_server: $(OBJDIR)/rdma_server.o $(CORE_OBJS) $(TEST_PLUGIN_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CM_LIBS) $(IBV_LIBS) -lm $(LDLIBS)

$(BUILD)/test/rdma_client: $(OBJDIR)/rdma_client.o $(CORE_OBJS) $(TEST_PLUGIN_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CM_LIBS) $(IBV_LIBS) -lm $(LDLIBS)

$(OBJDIR)/unit/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	$(CC) $(DEP_FLAGS) $(ALL_CFLAGS) -c $< -o $@

-include $(CORE_OBJS:.o=.d) $(OBJDIR)/rdma_server.d $(OBJDIR)/rdma_client.d $(UNIT_OBJS:.o=.d) $(TEST_PLUGIN_OBJS:.o=.d)

$(CORE_LIB): $(CORE_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

# 单元测试只链接纯逻辑模块（从 $(CORE_LIB) 里按需取）和 cmocka，不需要 RDMA 设备
$(BUILD)/tests/unit_tests: $(UNIT_OBJS) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $(UNIT_OBJS) $(CORE_LIB) -lcmocka -lm $(LDLIBS) -Wl,-Map=$@.map

# 单元测试实际从 $(CORE_LIB) 里取了哪些模块（链接图的 “Archive member included” 一节；ar 只存文件名，
# tests/18-host-layout.t 保证文件名不重样，这里再按 CORE 还原成目录/名字）
print-pure: $(BUILD)/tests/unit_tests
	@sed -n 's|^[^ ]*libroce-core\.a(\([^)]*\)\.o).*|\1|p' $<.map | \
		while read -r m; do printf '%s\n' $(CORE) | grep -x "\(.*/\)\?$$m"; done | LC_ALL=C sort -u

# GID 规则的 C 一侧（tests/gid-rule/compare.sh 拿它和 scripts/gid_rule.sh 比较同一张表的选择）
#   （gid.o 用线上格式 wire.o 的 gid_kind_name：从 $(CORE_LIB) 里按需取）
$(BUILD)/tests/gid_pick: tests/gid-rule/pick.c $(CORE_LIB) src/verbs/gid.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -Isrc -o $@ tests/gid-rule/pick.c $(CORE_LIB) $(LDLIBS)

unit: $(BUILD)/tests/unit_tests $(BUILD)/tests/gid_pick

# 带 ASan/UBSan 的服务端、客户端和单元测试，放在 build/asan/（tests/33-lab-asan.t 在实验室里用它们）
asan:
	$(MAKE) BUILD=$(BUILD)/asan CC=$(ASAN_CC) SAN_FLAGS="$(ASAN_FLAGS)" all unit

# libFuzzer（make fuzz，不在 make test 里；tests/12-host-fuzz-smoke.t 只跑几秒）：对端发来的任意字节经过
# wire_decode_hello → adopt_client_options → wire_compare，不变量见 tests/fuzz/fuzz_hello.c。要 clang 和 libclang-rt-dev
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
# -max_len=1024：最长的 HELLO（16 个QP）不到 500 字节，再长的输入也要试（长度必须正好）
FUZZ_FLAGS   := -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g -O1
FUZZ_SRCS    := tests/fuzz/fuzz_hello.c src/control/wire.c src/verbs/gid.c src/control/adopt.c src/cli/options.c src/cli/parse.c src/cli/inject_kinds.c src/cli/op_table.c src/console/i18n.c
FUZZ_DIR     := $(BUILD)/fuzz

$(FUZZ_DIR)/fuzz_hello: $(FUZZ_SRCS) $(HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(ROCE_CPPFLAGS) $(IBV_CFLAGS) $(ROCE_CFLAGS) $(FUZZ_FLAGS) -Isrc -o $@ $(FUZZ_SRCS)

# 种子：几条正确的 HELLO，由 wire_encode_hello 生成（格式改了种子跟着变）
$(FUZZ_DIR)/seeds: $(FUZZ_SRCS) $(HDRS)
	@mkdir -p $(FUZZ_DIR)
	$(FUZZ_CC) $(ROCE_CPPFLAGS) $(IBV_CFLAGS) $(ROCE_CFLAGS) -DFUZZ_SEED_WRITER -Isrc -o $(FUZZ_DIR)/seed_writer $(FUZZ_SRCS)
	rm -rf $@ && mkdir -p $@ && $(FUZZ_DIR)/seed_writer $@

fuzz: $(FUZZ_DIR)/fuzz_hello $(FUZZ_DIR)/seeds
	@mkdir -p $(FUZZ_DIR)/corpus
	cd $(FUZZ_DIR) && ./fuzz_hello -max_total_time=$(FUZZ_SECONDS) -max_len=1024 corpus seeds

# 练习（docs/EXERCISES.md）：学习者在 exercises/NN-*.c 里自己写一步的课（rdma_common.c 里标 LESSON 的函数），
# make exercise EX=N 把它编进练习版（-DROCE_EXERCISE：课是弱符号，学习者的强符号顶替它；clang + ASan/UBSan），
# 先在宿主机上按规则检查，再到实验室的真实 rxe 上对参照的对端跑一次。FILE=路径 检查别的文件，REF=1 检查程序自己的函数，
# PEER=ip 在学习者自己的两台虚拟机上跑（不开实验室），NOLAB=1 只做宿主机这一层
EX ?=
# 编译在 flock 下：make test 里宿主机这一层（21）和实验室（32、61）同时跑，两个 make 不能同时写同一个 .o
exercise-objs:
	@mkdir -p build && flock build/.exercise-objs.lock $(MAKE) --no-print-directory BUILD=build/exercise CC=$(ASAN_CC) SAN_FLAGS="$(ASAN_FLAGS) -DROCE_EXERCISE" exercise-objs-here

exercise-objs-here: $(CORE_OBJS) $(OBJDIR)/rdma_server.o $(OBJDIR)/rdma_client.o

exercise: all exercise-objs
	@python3 exercises/check/exercise.py run $(EX) $(if $(FILE),--file $(FILE)) $(if $(REF),--ref) $(if $(PEER),--peer $(PEER)) $(if $(NOLAB),--no-lab) $(if $(LABONLY),--lab-only)

# 练习的进度表：编号、步骤、标题、状态（没开始 / 没通过和最后的诊断 / 通过），以及下一个
exercises:
	@bash lab/check-clone
	@python3 exercises/check/exercise.py table

# 从头再来：exercises/start/ 里的原样复制回 exercises/（旧的存在 build/exercises/*.bak）
exercise-reset:
	@bash lab/check-clone
	@python3 exercises/check/exercise.py reset $(EX)

# 全部错误样例（tests/exercises/fixtures/，每个文件写着它该得到的诊断）在宿主机这一层各得到自己的诊断
exercise-matrix: exercise-objs
	python3 exercises/check/exercise.py matrix

# 完整的测试：prove 依次运行 tests/*.t（宿主机、一台虚拟机、两台虚拟机、原版 Debian 四层，层写在文件名里）
test: all unit asan
	tests/prove-all.sh

# 快的一层：只跑宿主机上的 tests/*-host-*.t（不开虚拟机，2 分钟以内）；改完代码先跑它
check: all unit asan
	tests/prove-all.sh host

# 编译进两个程序的全部 .c（tests/18-host-layout.t 核对它和 src/ 下的文件一致）
print-sources:
	@printf '%s\n' $(SRC_ALL)

# 原版 Debian 镜像（mmdebstrap，缓存在 /var/cache/rocev2-lab/stock/，不在 git 里；需要 root：sudo make stock-images）：STOCK=debian12（默认）| debian13 | debian12-ufw | debian12-cloud | all
# （连同它的发行版的软件源磁盘，lab/stock-repo）
stock-images:
	bash lab/stock-images $(STOCK)

# 在一对原版 Debian 虚拟机里以 learner 原样执行 README 的步骤（tests/70-stock-readme.t；先 make stock-images）。
# 默认 debian12 和 debian13 各三个变体 plain、nftdrop、ufw（Ubuntu 样子的 Debian，镜像 debian1x-ufw：sudo make stock-images STOCK=all），
# 最后两台重启一次再检查（make test 里只有 debian12 plain、不重启）；STOCK=debian13 FLAVOUR=nftdrop 可选。
# 然后是克隆的那一例（tests/stock/clone.sh：两台 debian12-ufw 的克隆 + dnsmasq，README 的 clone 块）和
# 演练（tests/stock/drills.sh）：建 rxe、防火墙、memlock 的错误在原版 Debian 12 上各做一次，原话和文档对照
# 缺的镜像先建（root；不是 root 时失败并说出命令），每一行都要跑、都要过（没有“跳过”），最后数出跑了几行、过了几行（tests/stock/all.sh）
test-stock: all
	@STOCK="$(STOCK)" FLAVOUR="$(FLAVOUR)" tests/stock/all.sh stock

# 云内核那一例（tests/stock/cloud.sh；一对 Debian 12 云内核镜像，GRUB 从磁盘启动，QUICKFIX 的修复后重启一次；先建 debian12-cloud 镜像）
test-cloud: all
	@tests/stock/all.sh cloud

# 三个内核（5.10、6.1、6.12）各跑一遍实验室测试的代表子集（tests/kernels/run.sh 开头列出了子集；TCG 下每个内核约 8 分钟）
test-kernels: all unit asan
	tests/kernels/run.sh $(KERNELS)

# 长时间的多客户端浸泡：200 个会话一个接一个（make test 里只跑 25 个），fd/rdma 资源不增长、RSS 不超过 10%
soak: all
	SOAK_SESSIONS=200 LAB_PASSENV="$(LAB_PASSENV) SOAK_SESSIONS" lab/run bats --tap -f sequential tests/lab/many.bats

# valgrind 下的用例（bats 标签 memcheck：一对程序、失败路径、--cm、--cq event 全部操作、多客户端服务端）；make test 用 ASan+UBSan 检查内存
memcheck: all
	lab/run bats --tap --timing --filter-tags memcheck tests/lab/pair.bats tests/lab/cm.bats tests/lab/bench.bats tests/lab/many.bats

# 变异检查：tests/mutation/*.patch 逐个打到副本上，跑各自的测试，打印 caught/MISSED/STALE 表（慢：86 个，2026-11-27 的 65 个约 40 分钟）
mutation: all
	tests/mutation/run.sh $(MUTANTS)

# 实验室目标都先运行 bash lab/setup：普通用户时它只检查（准备好了就什么也不做，不要 root；没准备好就说出缺什么和
# sudo 命令并失败），root（CI）时补上缺的。之后的一切（编译、qemu/TCG、logs/）都不要 root
demo:
	bash lab/setup
	$(MAKE) all
	LAB_TOPOLOGY=$(TOPOLOGY) LAB_PASSENV="DEMO_ARGS $(LOCALE_ENV)" lab/run lab/demo.sh

# 在实验室里跑一对带 --trace 的程序并抓包，画成 logs/trace.txt 和 logs/trace.html（docs/TRACE.md）。
# DEMO_ARGS 给两端，SERVER_ARGS / CLIENT_ARGS 只给一端（例如 CLIENT_ARGS="--inject rkey"）
trace:
	bash lab/setup
	$(MAKE) all
	rm -f logs/trace.txt logs/trace.html
	LAB_TOPOLOGY=$(TOPOLOGY) LAB_PASSENV="DEMO_ARGS SERVER_ARGS CLIENT_ARGS $(LOCALE_ENV)" lab/run lab/trace.sh
	$(MAKE) trace-render

# 只重新画：已有的 logs/trace-server.jsonl、logs/trace-client.jsonl、logs/trace.pcap → logs/trace.txt、logs/trace.html
trace-render:
	tools/trace/render logs/trace-server.jsonl logs/trace-client.jsonl --packets logs/trace.pcap \
		--txt logs/trace.txt --html logs/trace.html
	@echo "时间线: less -S logs/trace.txt   网页: 用浏览器打开 logs/trace.html"

# docs/EXERCISES.md 里的截图 docs/trace-screenshot.png：实验室里真实跑一次 2 QP × 2 KiB 的 WRITE，headless chromium 截图
# （只留步骤11 的表和步骤15；同时做一遍 tests/trace/browser-check.py 的 DOM 检查）
trace-screenshot:
	$(MAKE) trace DEMO_ARGS="-q 2 --op write --size 2K --iters 1"
	python3 tests/trace/browser-check.py --html logs/trace.html --trace logs/trace-server.jsonl \
		--trace logs/trace-client.jsonl --packets logs/trace.pcap --txt logs/trace.txt \
		--readme-png docs/trace-screenshot.png --readme-step 15

# 故障画廊（docs/GALLERY.md）：实验室里一次启动，把 tools/gallery/kinds.txt 的每一种错误故意做一遍（两端 --trace，
# veth0 上抓包），画成 logs/gallery/index.html（和 trace 页面一样的样式）和 logs/gallery/gallery.txt
# 链路上的损伤在真实 rxe 上的样子（docs/LOSS-RECOVERY.md）：一次开机，丢包/只丢应答/高丢包/乱序/延迟 × --ack-timeout/重复，
# 每个场景两端 --counters + veth0 上抓包，写 logs/loss-recovery/（summary.txt、每个场景的日志和 pcap、gbn.svg、seq-*.svg）。不在 make test 里，约 2 分钟
# 两个丢包实验：loss-recovery（RC 自己怎样恢复，docs/LOSS-RECOVERY.md）和 loss-vs-tcp（吞吐量和 TCP 比，docs/LOSS-VS-TCP.md）。
# 旧名字 make impair / make lossy 仍然可用
impair: loss-recovery
lossy: loss-vs-tcp
loss-recovery: all
	bash lab/setup
	LAB_PASSENV="$(LOCALE_ENV)" bash lab/loss-recovery.sh logs/loss-recovery

gallery: all
	LAB_TOPOLOGY=single LAB_PASSENV="$(LOCALE_ENV)" lab/run lab/gallery.sh logs/gallery
	tools/gallery/render logs/gallery
	@echo "网页: 用浏览器打开 logs/gallery/index.html   表: logs/gallery/gallery.txt"

# 把一次 make gallery 留在 docs/：docs/gallery.html（docs/GALLERY.md 和 TROUBLESHOOTING 链到它）和一节的截图 docs/gallery-psn.png
gallery-docs: gallery
	cp logs/gallery/index.html docs/gallery.html
	python3 tests/gallery/browser-check.py --html docs/gallery.html --json logs/gallery/gallery.json \
		--section-png psn docs/gallery-psn.png

# 实验室虚拟机里的交互式 root shell（真正的终端；exit 或 Ctrl-D 关机）。LAB_RXE=none：没有 RDMA 设备，自己建
LAB_RXE ?= rxe
shell:
	bash lab/setup
	$(MAKE) all
	LAB_TOPOLOGY=$(TOPOLOGY) LAB_RXE=$(LAB_RXE) lab/run --shell

lab-setup:
	bash lab/setup

# 基准对比（不在 make test 里）：一次实验室开机，本项目 --bench 与 perftest 交替跑同样的大小和轮数，
# 结果写到 logs/bench/（results.csv、results.md、latency.svg、bandwidth.svg）；每一格交替重复 BENCH_REPEAT 次（默认 3）；TCG 下十几分钟
bench:
	bash lab/setup
	$(MAKE) all
	rm -rf logs/bench
	LAB_PASSENV="BENCH_CELLS BENCH_SIZES BENCH_TESTS BENCH_LAT_ITERS BENCH_CQ_SIZES BENCH_REPEAT BENCH_KNOB_TESTS BENCH_KNOB_SIZES" lab/run tools/bench/compare.sh
	tools/bench/report.sh

# 计时循环每次乒乓的用户态指令数（不在 make test 里）：一次实验室开机，tools/bench/ir.sh 把 2 字节的 --bench lat 和
# ib_send_lat/ib_write_lat 放在 callgrind（和 strace）下各跑 IR_N1、IR_N2 轮，写 logs/ir/；再在宿主机上 tools/bench/cgfuncs.py
# 打印计数表（本项目/perftest，客户端/服务端，send/write），最后是两边的 inline 设置（inline.txt）。IR_MODES 选跑哪几样
# （默认 client server both strace，约 6 分钟；IR_MODES="client server" 约 3 分钟）。读法：docs/dev/bench-records.md 的“延迟差在哪里”
IR_OUT ?= logs/ir
ir:
	bash lab/setup
	$(MAKE) all
	rm -rf $(IR_OUT)
	LAB_PASSENV="IR_MODES IR_N1 IR_N2 IR_BUILD IR_SIDES" lab/run tools/bench/ir.sh $(IR_OUT)
	python3 tools/bench/cgfuncs.py $(IR_OUT)
	cat $(IR_OUT)/inline.txt

# 一次开机里的 A/B（不在 make test 里；docs/dev/bench-records.md 的“延迟差在哪里”）：乒乓里每条用户态指令、每次读时钟各值多少纳秒。
# tools/bench/ab.sh 在实验室里交替跑 base / burn（LD_PRELOAD tools/bench/abshim.c）/ tsc / perftest，再跑 tools/bench/nsir.c；
# tools/bench/ab.py 在宿主机上汇总 logs/ab/。AB_REPS、AB_BURN、AB_ITERS 传进实验室；约 2 分钟
bench-ab:
	bash lab/setup
	$(MAKE) all
	rm -rf logs/ab
	LAB_PASSENV="AB_REPS AB_BURN AB_ITERS" lab/run tools/bench/ab.sh logs/ab
	python3 tools/bench/ab.py logs/ab

# RoCE 和 TCP 在同一条有损链路上（不在 make test 里）：一次单机实验室开机，丢包 LOSSY_LOSSES（%）下本项目的 --bench bw、
# perftest 的 ib_write_bw、iperf3 轮流各跑 LOSSY_REPS 次（默认 5），写 logs/loss-vs-tcp/（reps.csv、results.csv/.md、lossy.svg）；约 8 分钟。
# 开机的上限是 LAB_TIMEOUT（默认 900 秒）；超时或失败时已经量完的运行照样出表和图，make 再以 lab/run 的退出码失败
loss-vs-tcp:
	bash lab/setup
	$(MAKE) all
	rm -rf logs/loss-vs-tcp
	rc=0; LAB_PASSENV="LOSSY_LOSSES LOSSY_REPS LOSSY_TCP_SECS LOSSY_TOOLS" lab/run tools/loss-vs-tcp/run.sh || rc=$$?; \
	tools/loss-vs-tcp/report.sh; exit $$rc

# 从实验室的真实运行重新生成文档里的输出摘录（tests/docs/update-excerpts.sh 开头有说明）
docs-excerpts: all
	tests/docs/update-excerpts.sh

# 控制台输出比较（重构“行为不变”的证据，不在 make test 里；docs/DEVELOPING.md “控制台输出不变”）：BASE 和 REV 两个 git 版本
# 各在临时 git worktree 里编译、各一次实验室开机跑 tools/console-diff/recipes.sh 的全部配方，规整后逐个配方 diff。
# BASE 也可以是 tools/console-diff/run.sh --save 存下的目录（有 raw/ 子目录），那样只跑 REV。TCG 下一个版本约 4 分钟
BASE ?= main
REV  ?= HEAD
console-diff:
	bash lab/setup
	tools/console-diff/run.sh $(if $(wildcard $(BASE)/raw),--base $(BASE),$(BASE)) $(REV)

clean:
	rm -rf $(BUILD)

rebuild: clean
	$(MAKE) all

help:
	@echo "make            编译 build/rdma_server 和 build/rdma_client"
	@echo "make clean      删除 build/"
	@echo "make rebuild    清理后重新编译"
	@echo "make unit       编译单元测试 build/tests/unit_tests"
	@echo "make asan       用 clang 的 ASan+UBSan 编译程序和单元测试到 build/asan/（ASAN_CC=gcc 换编译器）"
	@echo "                调试版: make CFLAGS=\"-O0 -g\"；换编译器: make CC=clang（项目必需的参数总是保留）"
	@echo "make exercises  练习的进度表；make exercise EX=N 检查 exercises/ 里你写的第 N 个练习（docs/EXERCISES.md）"
	@echo "make check      快的一层：编译 + 宿主机上的测试（tests/*-host-*.t，不开虚拟机，2 分钟以内）"
	@echo "make test       编译 + 全部测试：宿主机 + Soft-RoCE 实验室（先 sudo LAB_KERNEL=all LAB_STOCK=debian12 bash lab/setup 一次）"
	@echo "sudo make stock-images  用 mmdebstrap 做原版 Debian 12 镜像（STOCK=debian13|all），缓存在 git 之外（要 root）"
	@echo "make test-stock    在一对原版 Debian 12 虚拟机里以 learner 原样执行 README 的步骤"
	@echo "make test-cloud    云内核镜像（Debian 12 cloud，GRUB 启动）上：快速开始失败、QUICKFIX 的修复、重启进通用内核、一对"
	@echo "make test-kernels  在 Debian 的 5.10、6.1、6.12 三个内核上各跑一遍实验室测试的子集（KERNELS=\"5.10\" 只跑一个）"
	@echo "                所有实验室目标都可加 LAB_KERNEL=5.10|6.1|6.12（默认 6.1）；先 sudo LAB_KERNEL=... bash lab/setup"
	@echo "make memcheck   valgrind 下的慢用例（一对程序、失败路径、--cm、--cq event、多客户端；约 3 分钟）"
	@echo "make soak       多客户端服务端连续服务 200 个客户端，检查 fd、rdma 资源、RSS 不增长（约 5 分钟）"
	@echo "make fuzz       libFuzzer 跑 HELLO 的解码+校验+听客户端的参数+比较（FUZZ_SECONDS=60；不在 make test 里）"
	@echo "make mutation   变异检查：每个 tests/mutation/*.patch 都必须被测试抓住（慢；MUTANTS=race 只跑名字含 race 的）"
	@echo "make demo       准备实验室并演示服务端/客户端（TOPOLOGY=two-vms 用两台虚拟机）"
	@echo "make trace      实验室里两端加 --trace 并抓包，画成 logs/trace.txt 和 logs/trace.html（DEMO_ARGS、SERVER_ARGS、CLIENT_ARGS、TOPOLOGY）"
	@echo "make trace-render  只重新画：logs/trace-*.jsonl + logs/trace.pcap → logs/trace.txt、logs/trace.html"
	@echo "make trace-screenshot  重新生成 docs/EXERCISES.md 里的截图 docs/trace-screenshot.png（实验室 + headless chromium）"
	@echo "make gallery    故障画廊：实验室里把每一种常见的完成错误故意做一遍（--trace + 抓包），画成 logs/gallery/index.html"
	@echo "make gallery-docs  重新生成 docs/gallery.html 和截图 docs/gallery-psn.png（docs/GALLERY.md 链到它们）"
	@echo "make ir         计时循环每次乒乓的用户态指令数，本项目对 perftest（实验室里 callgrind，约 6 分钟；IR_MODES=\"client server\" 快一半）"
	@echo "make loss-recovery  链路上的损伤（丢包、乱序、延迟 × --ack-timeout、重复）在真实 rxe 上：两端计数 + 抓包，写 logs/loss-recovery/（docs/LOSS-RECOVERY.md；约 2 分钟）"
	@echo "make shell      进入实验室虚拟机里的 root shell，自己动手（LAB_RXE=none：没有 RDMA 设备，照 README 自己建）"
	@echo "make bench      实验室里本项目 --bench 与 perftest 交替对比，写 logs/bench/（results.csv/.md 和图；每格交替 3 次，十几分钟，不在 make test 里）"
	@echo "make bench-ab   一次开机里的 A/B：每条用户态指令、每次读时钟在乒乓里各值多少纳秒，写 logs/ab/（tools/bench/ab.sh，约 2 分钟）"
	@echo "make loss-vs-tcp    丢包 0–2% 下本项目 --bench bw、perftest、TCP（iperf3）同一条 veth 上轮流量，写 logs/loss-vs-tcp/（表和图，约 8 分钟，不在 make test 里）"
	@echo "sudo make lab-setup  安装依赖、准备 qemu 实验室（= sudo bash lab/setup；只有这一步要 root，lab/setup --check 看缺什么）"
	@echo "make docs-excerpts  在实验室里重跑配方，更新文档中的输出摘录（tests/docs/update-excerpts.sh）"
	@echo "make console-diff BASE=版本 [REV=HEAD]  两个版本的控制台输出规整后逐个配方比较（重构不改行为的证据；BASE 可以是 --save 存下的目录）"
