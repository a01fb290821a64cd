# RoCEv2 learn - GNU Make 构建脚本
#   make            编译 build/rdma_server 与 build/rdma_client
#   make test       单元测试 + Soft-RoCE 实验室（qemu 里的真实 rdma_rxe）测试
#   make demo       在实验室里跑一遍服务端/客户端，显示两边的带注释输出
#   make help       查看全部目标

CC      ?= gcc
CFLAGS  ?= -O2 -g
CFLAGS  += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror
IBV_CFLAGS := $(shell pkg-config --cflags libibverbs 2>/dev/null)
IBV_LIBS   := $(shell pkg-config --libs libibverbs 2>/dev/null || echo -libverbs)

BUILD   := build
OBJDIR  := $(BUILD)/obj
# 纯逻辑模块（不调用 libibverbs 的函数，可在没有 RDMA 的机器上单元测试）
PURE    := options gid wire hints payload
# 与 verbs/网络打交道的模块
CORE    := rdma_common qp_state datapath tcp ops $(PURE)
CORE_OBJS := $(addprefix $(OBJDIR)/,$(addsuffix .o,$(CORE)))
PURE_OBJS := $(addprefix $(OBJDIR)/,$(addsuffix .o,$(PURE)))
UNIT_SRCS := $(wildcard tests/unit/*.c)
UNIT_OBJS := $(patsubst tests/unit/%.c,$(OBJDIR)/unit/%.o,$(UNIT_SRCS))

TOPOLOGY ?= single

.PHONY: all clean rebuild help test unit demo lab-setup check-deps docs-excerpts

all: $(BUILD)/rdma_server $(BUILD)/rdma_client

check-deps:
	@pkg-config --exists libibverbs || { echo "错误: 找不到 libibverbs（pkg-config libibverbs）。安装: sudo apt-get install libibverbs-dev pkg-config" >&2; exit 1; }

$(OBJDIR)/%.o: src/%.c src/*.h | check-deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(IBV_CFLAGS) -c $< -o $@

$(BUILD)/rdma_server: $(OBJDIR)/rdma_server.o $(CORE_OBJS)
	$(CC) $(CFLAGS) -o $@ $^ $(IBV_LIBS)

$(BUILD)/rdma_client: $(OBJDIR)/rdma_client.o $(CORE_OBJS)
	$(CC) $(CFLAGS) -o $@ $^ $(IBV_LIBS)

$(OBJDIR)/unit/%.o: tests/unit/%.c tests/unit/*.h src/*.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(IBV_CFLAGS) -Isrc -c $< -o $@

# 单元测试只链接纯逻辑模块和 cmocka，不需要 RDMA 设备
$(BUILD)/tests/unit_tests: $(UNIT_OBJS) $(PURE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $^ -lcmocka

unit: $(BUILD)/tests/unit_tests

# 唯一的测试命令：prove 依次运行 tests/*.t（单元测试、脚本测试、实验室测试）
test: all unit
	prove --exec bash --timer tests/*.t

demo:
	bash lab/setup
	$(MAKE) all
	LAB_TOPOLOGY=$(TOPOLOGY) LAB_PASSENV=DEMO_ARGS lab/run lab/demo.sh

lab-setup:
	bash lab/setup

# 从实验室的真实运行重新生成文档里的输出摘录（tests/docs/update-excerpts.sh 开头有说明）
docs-excerpts: all
	tests/docs/update-excerpts.sh

clean:
	rm -rf $(BUILD)

rebuild: clean
	$(MAKE) all

help:
	@echo "make            编译 build/rdma_server 和 build/rdma_client"
	@echo "make clean      删除 build/"
	@echo "make rebuild    清理后重新编译"
	@echo "make unit       编译单元测试 build/tests/unit_tests"
	@echo "make test       编译 + 单元测试 + Soft-RoCE 实验室测试（需先 lab/setup，root）"
	@echo "make demo       准备实验室并演示服务端/客户端（TOPOLOGY=two-vms 用两台虚拟机）"
	@echo "make lab-setup  安装依赖、准备 qemu 实验室（root）"
	@echo "make docs-excerpts  在实验室里重跑配方，更新文档中的输出摘录（tests/docs/update-excerpts.sh）"
