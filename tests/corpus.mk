# The corpus's tests: it regenerates byte for byte, gcoracle decodes every
# case as expected, it keeps its coverage, gcoracle compare raises each of
# its codes, and the worked example of docs/using-the-corpus.md passes.
TESTS += tests/corpus/regenerate.sh tests/corpus/oracle_cases.sh tests/corpus/coverage.sh \
	tests/corpus/compare_codes.sh tests/corpus/run.sh
EXTRA_DIST += tests/corpus/regenerate.sh tests/corpus/oracle_cases.sh tests/corpus/coverage.sh \
	tests/corpus/compare_codes.sh tests/corpus/run.sh

# gcoracle run as a sandbox: containment, limits over the whole process
# tree, reports the decoder can neither reach nor forge; declarations that
# name what is not known are an error.
TESTS += tests/corpus/run_sandbox.sh tests/corpus/run_decl.sh
EXTRA_DIST += tests/corpus/run_sandbox.sh tests/corpus/run_decl.sh

# signed-view accepts the two's-complement reading of the field's own width.
TESTS += tests/corpus/signed_view.sh
EXTRA_DIST += tests/corpus/signed_view.sh

# Failures that explain themselves: accept entries without traps, the fault of a
# failing case named, differences grouped, an index shift reported once.
TESTS += tests/corpus/run_explain.sh
EXTRA_DIST += tests/corpus/run_explain.sh

# The worked example: a decoder written as an outsider would (it includes
# nothing of gcconform), checking itself against the corpus.
check_PROGRAMS += tests/corpus/tinydec
tests_corpus_tinydec_SOURCES = tests/corpus/tinydec.c
tests_corpus_tinydec_CPPFLAGS =
TESTS += tests/corpus/tinydec.sh
EXTRA_DIST += tests/corpus/tinydec.sh

# gcgen's options the corpus is made with (--values, --writer-option).
TESTS += tests/corpus/gcgen_values.sh
EXTRA_DIST += tests/corpus/gcgen_values.sh

# docs/real-parser-bugs.md: every case, fault class, code, option and path
# its table cites exists, and its counts agree with the table.
TESTS += tests/corpus/real_parser_bugs.py
EXTRA_DIST += tests/corpus/real_parser_bugs.py docs/real-parser-bugs.md

# The y_*_runtime_* cases show the real-runtime habit each is named after
# (docs/real-runtime.md), and gcoracle accepts them.
TESTS += tests/corpus/runtime_habits.py
EXTRA_DIST += tests/corpus/runtime_habits.py

# The worked examples of docs/using-the-corpus.md (Python; C# xUnit with
# TraceEvent when dotnet is installed), run against gcconform installed; and
# every snippet of the corpus docs, extracted and run.
TESTS += tests/corpus/examples.sh tests/corpus/doc_snippets.py
EXTRA_DIST += tests/corpus/examples.sh tests/corpus/doc_snippets.py
