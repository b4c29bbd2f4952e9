# gcgen's tests (TAP).
check_PROGRAMS += tests/gen/encode_test tests/gen/model_check tests/gen/outfile_test
tests_gen_encode_test_SOURCES = tests/gen/encode_test.c
tests_gen_encode_test_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_gen_encode_test_LDADD = $(GEN_LIBS) $(CBOR_LIBS)
tests_gen_outfile_test_SOURCES = tests/gen/outfile_test.c
tests_gen_outfile_test_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_gen_outfile_test_LDADD = gen/libgcgen.a
tests_gen_model_check_SOURCES = tests/gen/model_check.c
tests_gen_model_check_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests $(CBOR_CFLAGS)
tests_gen_model_check_LDADD = $(CBOR_LIBS)

# Machine-wide traces (gcgen --processes): each process against a one-process run.
TESTS += tests/gen/encode_test tests/gen/outfile_test tests/gen/gcgen_cli.sh tests/gen/container_faults.sh \
	tests/gen/output_contract.sh tests/gen/machine.py
EXTRA_DIST += tests/gen/gcgen_cli.sh tests/gen/container_faults.sh tests/gen/machine.py \
	tests/gen/output_contract.sh tests/gen/shard_5_7_seed3.cksum
