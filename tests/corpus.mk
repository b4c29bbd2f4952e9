# The corpus's tests: it regenerates byte for byte, gcoracle decodes every
# case as expected, it keeps its coverage, gcoracle compare raises each of
# its codes, and the worked example of docs/using-the-corpus.md passes.
TESTS += tests/corpus/regenerate.sh tests/corpus/oracle_cases.sh tests/corpus/coverage.sh \
	tests/corpus/compare_codes.sh
EXTRA_DIST += tests/corpus/regenerate.sh tests/corpus/oracle_cases.sh tests/corpus/coverage.sh \
	tests/corpus/compare_codes.sh
