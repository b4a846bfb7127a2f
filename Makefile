# SPDX-License-Identifier: GPL-2.0-or-later
# respin: build, test, demo, bench.  `make help` lists the targets.

CC ?= cc
CFLAGS ?= -O2 -g
# TSAN=1: ThreadSanitizer, in a build directory of its own
ifeq ($(TSAN),1)
BUILD ?= build-tsan
endif
BUILD ?= build
PREFIX ?= /usr/local
PKGS = libgit2 gmime-3.0 sqlite3 zlib json-c
# libcurl and libnotmuch: headers only, loaded on first use (tools/lib/dl.h)
CURL_CFLAGS := $(shell pkg-config --cflags libcurl 2>/dev/null)

WARN = -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers
# DEVELOPER=1 (CI sets it) turns every warning into an error and adds the
# checks git's developer build has that gcc and clang share: a function
# not static has a prototype in a header the file includes (a command's
# in tools/builtin.h), declarations come first, no VLAs, string literals
# are const, no arithmetic on void *, ISO C with GNU extensions.
ifeq ($(DEVELOPER),1)
WARN += -Werror -pedantic -Wmissing-prototypes -Wstrict-prototypes \
	-Wold-style-definition -Wdeclaration-after-statement -Wvla \
	-Wwrite-strings -Wpointer-arith -Wformat-security -fno-common
# and what git's adds for clang alone (the fuzz build is clang's): a
# comma operator only where a list of expressions is meant
DEV_CLANG = -Wcomma
ifneq ($(findstring clang,$(shell $(CC) --version 2>/dev/null | sed 1q)),)
WARN += $(DEV_CLANG)
endif
endif
# V=1 shows the commands instead of the short "  CC  file" lines.
ifeq ($(V),1)
Q =
quiet = @:
else
Q = @
quiet = @echo
endif
ifeq ($(SAN),1)
SANFLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
endif
ifeq ($(TSAN),1)
SANFLAGS = -fsanitize=thread -fno-omit-frame-pointer
endif

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null) -ldl
ALL_CFLAGS = -std=gnu11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(SANFLAGS) -I. $(PKG_CFLAGS) $(CURL_CFLAGS) -MMD -MP
ALL_LDFLAGS = -Wl,-O1 -Wl,--as-needed $(LDFLAGS) $(SANFLAGS)
LIBS = $(PKG_LIBS) -lm

# Every .c in these folders goes into the program (dependencies run one
# way, left to right: see docs/design.md).
DIRS = tools/lib patches series ci review bisect
LIB_SRC = $(wildcard $(addsuffix /*.c,$(DIRS)))
LIB_OBJ = $(LIB_SRC:%.c=$(BUILD)/%.o)
MAIN_OBJ = $(BUILD)/tools/respin.o
UNIT_SRC = $(wildcard tests/unit/t-*.c)
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/unit/%)
# Small driver programs that end-to-end tests call (not tests themselves).
HELPER_SRC = $(wildcard tests/helpers/*.c)
HELPER_BIN = $(HELPER_SRC:tests/helpers/%.c=$(BUILD)/tests/helpers/%)
# E2E_SKIP="t0995 t0996": end-to-end tests left out of this run (.ci/run's
# sanitizer pass leaves out those whose time is QEMU's, run just before).
E2E = $(filter-out $(foreach t,$(E2E_SKIP),tests/e2e/$(t)%),$(wildcard tests/e2e/t[0-9]*.sh))
DOCS = $(wildcard docs/respin*.md)
MANS = $(DOCS:docs/%.md=$(BUILD)/man/man1/%.1)

# respin-bench-run: what a bench with a recipe or vmstat runs (found
# beside respin, or in PREFIX/libexec/respin installed)
PROGRAMS = $(BUILD)/respin $(BUILD)/git-respin $(BUILD)/respin-bench-run

all: $(PROGRAMS) $(MANS)

$(BUILD)/respin: $(MAIN_OBJ) $(BUILD)/librespin.a
	$(quiet) "  LINK    $@"
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/respin-bench-run: $(BUILD)/tools/respin-bench-run.o $(BUILD)/librespin.a
	$(quiet) "  LINK    $@"
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/git-respin: $(BUILD)/respin
	ln -f $< $@

$(BUILD)/librespin.a: $(LIB_OBJ)
	$(Q)rm -f $@
	$(quiet) "  AR      $@"
	$(Q)ar rcs $@ $^

$(BUILD)/%.o: %.c
	$(Q)mkdir -p $(dir $@)
	$(quiet) "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/tests/unit/%: tests/unit/%.c tests/unit/tap.h $(BUILD)/librespin.a
	$(Q)mkdir -p $(dir $@)
	$(quiet) "  CCLD    $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(BUILD)/librespin.a $(LIBS)

$(BUILD)/tests/helpers/%: tests/helpers/%.c $(BUILD)/librespin.a
	$(Q)mkdir -p $(dir $@)
	$(quiet) "  CCLD    $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(BUILD)/librespin.a $(LIBS)

$(BUILD)/man/man1/%.1: docs/%.md tools/md2man.sh
	@mkdir -p $(dir $@)
	sh tools/md2man.sh $< > $@.tmp && mv $@.tmp $@

deps:
	sh tools/install-deps.sh

units: $(UNIT_BIN) $(HELPER_BIN)

# Under TSAN=1 only the tests that run threads: the unit tests that start
# them, and the end-to-end tests of respin check -j (lint jobs in threads).
TSAN_UNIT = $(patsubst tests/unit/%.c,$(BUILD)/tests/unit/%,$(shell grep -l pthread_create tests/unit/t-*.c))
TSAN_E2E = $(shell grep -lE 'respin check .*-j ?[0-9]' tests/e2e/t[0-9]*.sh)
ifeq ($(TSAN),1)
CHECK_TESTS = $(TSAN_UNIT) $(TSAN_E2E)
else
CHECK_TESTS = $(UNIT_BIN) $(E2E)
endif

# The README's test command (after `make deps`, which installs what the
# tests need): builds, runs every unit and end-to-end test through prove.
# check installs nothing itself.
check:
	$(MAKE) all units
	RESPIN_BUILD=$(abspath $(BUILD)) prove -f $(PROVE_FLAGS) $(CHECK_TESTS)

demo: deps
	$(MAKE) all
	RESPIN_BUILD=$(abspath $(BUILD)) sh tools/demo.sh

bench: deps
	$(MAKE) all $(HELPER_BIN)
	RESPIN_BUILD=$(abspath $(BUILD)) sh tools/bench/run.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BUILD)/respin $(DESTDIR)$(PREFIX)/bin/respin
	ln -f $(DESTDIR)$(PREFIX)/bin/respin $(DESTDIR)$(PREFIX)/bin/git-respin
	install -m 644 $(MANS) $(DESTDIR)$(PREFIX)/share/man/man1/
	# the QEMU runner of kselftest checks, found beside respin
	install -d $(DESTDIR)$(PREFIX)/libexec/respin/qemu-init
	install -m 755 tools/respin-qemu-ktap $(DESTDIR)$(PREFIX)/libexec/respin/
	install -m 644 tools/qemu-init/init.c $(DESTDIR)$(PREFIX)/libexec/respin/qemu-init/
	# what a bench with a recipe or vmstat runs
	install -m 755 $(BUILD)/respin-bench-run $(DESTDIR)$(PREFIX)/libexec/respin/
	# what build kconfig = tiny-qemu runs
	install -m 755 tools/kernel-config-tiny.sh $(DESTDIR)$(PREFIX)/libexec/respin/
	# bash completion: "respin" and, loaded by git's, "git respin"
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 644 tools/respin-completion.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/respin
	install -m 644 tools/respin-completion.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/git-respin
	# the guest runner of guest = true checks, and its init's source
	install -d $(DESTDIR)$(PREFIX)/libexec/respin/guest-init
	install -m 755 tools/respin-guest $(DESTDIR)$(PREFIX)/libexec/respin/
	install -m 644 tools/guest-init/init.c $(DESTDIR)$(PREFIX)/libexec/respin/guest-init/

clean:
	rm -rf $(BUILD) build-san build-tsan

# Fuzzing (tests/fuzz/README.md): the library and every tests/fuzz/fuzz-*.c
# built by clang with libFuzzer, ASan and UBSan in $(FUZZ_BUILD); make fuzz
# runs each target FUZZ_TIME seconds on a copy of its seed corpus.
FUZZ_CC ?= clang
FUZZ_BUILD ?= build-fuzz
FUZZ_TIME ?= 600
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS = -std=gnu11 -D_GNU_SOURCE $(WARN) $(DEV_CLANG) -O1 -g $(FUZZ_SAN) -I. $(PKG_CFLAGS) $(CURL_CFLAGS) -MMD -MP
FUZZ_NAMES = $(patsubst tests/fuzz/fuzz-%.c,%,$(wildcard tests/fuzz/fuzz-*.c))
FUZZ_BIN = $(FUZZ_NAMES:%=$(FUZZ_BUILD)/fuzz-%)
FUZZ_LIB_OBJ = $(LIB_SRC:%.c=$(FUZZ_BUILD)/%.o)

$(FUZZ_BUILD)/%.o: %.c
	$(Q)mkdir -p $(dir $@)
	$(quiet) "  FUZZCC  $<"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_BUILD)/librespin.a: $(FUZZ_LIB_OBJ)
	$(Q)rm -f $@
	$(quiet) "  AR      $@"
	$(Q)ar rcs $@ $^

$(FUZZ_BUILD)/fuzz-%: tests/fuzz/fuzz-%.c tests/fuzz/fuzz.h $(FUZZ_BUILD)/librespin.a
	$(quiet) "  FUZZLD  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -DFUZZ_LIBFUZZER -fsanitize=fuzzer -o $@ $< $(FUZZ_BUILD)/librespin.a $(LIBS)

fuzz-build: $(FUZZ_BIN)

fuzz: fuzz-build
	sh tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_TIME) $(FUZZ_NAMES)

fuzz-clean:
	rm -rf $(FUZZ_BUILD)

clean: fuzz-clean

.PHONY: fuzz fuzz-build fuzz-clean
-include $(FUZZ_LIB_OBJ:.o=.d) $(FUZZ_BIN:=.d)

help:
	@echo "make            build $(BUILD)/respin and $(BUILD)/git-respin"
	@echo "make deps       install the Debian packages respin needs (as root)"
	@echo "make check      build, run all tests (make deps check on a new machine)"
	@echo "make demo       install dependencies, run respin on a built-in example"
	@echo "make bench      benchmarks against git, b4 and friends"
	@echo "make install    install into $(PREFIX) (PREFIX=, DESTDIR=)"
	@echo "make SAN=1 BUILD=build-san check   the same under ASan+UBSan"
	@echo "make check TSAN=1   the threaded tests under ThreadSanitizer (build-tsan)"
	@echo "make fuzz       fuzz each parser FUZZ_TIME=600 s (fuzz-build: only build; clang)"
	@echo "DEVELOPER=1     warnings are errors (CI);  V=1  show commands"

.PHONY: all deps units check demo bench install clean help
.SUFFIXES:

-include $(LIB_OBJ:.o=.d) $(MAIN_OBJ:.o=.d) $(BUILD)/tools/respin-bench-run.d $(UNIT_BIN:=.d) $(HELPER_BIN:=.d)
