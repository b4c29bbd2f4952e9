# The CTF (LTTng) reader: a library of its own, compiled once, that gcoracle
# (through ctf_adapter.c, the or_reader_ops adapter in liboracle, listed in
# reader_table.c) and tests/ctf/ link.
noinst_LIBRARIES += oracle/formats/ctf/libgcctf_r.a
oracle_formats_ctf_libgcctf_r_a_SOURCES = \
	oracle/formats/ctf/ctf_r.h oracle/formats/ctf/ctf_read_i.h oracle/formats/ctf/ctf_read.c \
	oracle/formats/ctf/ctf_meta.h oracle/formats/ctf/ctf_lex.h oracle/formats/ctf/ctf_lex.c oracle/formats/ctf/ctf_tsdl.c \
	oracle/formats/ctf/ctf_compile.c oracle/formats/ctf/ctf_decode.c oracle/formats/ctf/ctf_class.c \
	oracle/formats/ctf/ctf_payload.c oracle/formats/ctf/ctf_report.h oracle/formats/ctf/ctf_report.c
ORACLE_READER_LIBS += oracle/formats/ctf/libgcctf_r.a
oracle_liboracle_a_SOURCES += oracle/formats/ctf/ctf_adapter.c
