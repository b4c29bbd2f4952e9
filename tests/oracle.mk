# gcoracle tests (TAP). The C test links the oracle library, never gen/ code
# beyond the spec tables; model streams are built in the test with libcbor.
check_PROGRAMS += tests/oracle/oracle_test
tests_oracle_oracle_test_SOURCES = tests/oracle/oracle_test.c \
	tests/oracle/model_builder.h
tests_oracle_oracle_test_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/oracle \
	-I$(top_srcdir)/tests $(CBOR_CFLAGS)
tests_oracle_oracle_test_LDADD = oracle/liboracle.a gen/libgcspec.a $(CBOR_LIBS)
TESTS += tests/oracle/oracle_test tests/oracle/cli.sh
EXTRA_DIST += tests/oracle/cli.sh

# The time-order window (oracle/reorder.c) against a stable sort.
check_PROGRAMS += tests/oracle/reorder_test
tests_oracle_reorder_test_SOURCES = tests/oracle/reorder_test.c
tests_oracle_reorder_test_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/oracle \
	-I$(top_srcdir)/tests
tests_oracle_reorder_test_LDADD = oracle/liboracle.a gen/libgcspec.a
TESTS += tests/oracle/reorder_test
