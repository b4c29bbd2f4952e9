# The nettrace writer and its container-fault mutator: a library of their own
# so tests/nettrace/ can link them without the rest of gcgen.
noinst_LIBRARIES += gen/libgcnettrace_w.a
gen_libgcnettrace_w_a_SOURCES = \
	gen/nettrace_w.h gen/write_nettrace.c \
	gen/nettrace_wbuf.h gen/nettrace_wbuf.c \
	gen/nettrace_wmeta.h gen/nettrace_wmeta.c \
	gen/nettrace_wsp.h gen/nettrace_wsp.c \
	gen/mutate_nettrace.h gen/mutate_nettrace.c

# gcgen gets the same writer through libgcgen (writer_table.c lists it).
gen_libgcgen_a_SOURCES += \
	gen/write_nettrace.c gen/nettrace_wbuf.c gen/nettrace_wmeta.c gen/nettrace_wsp.c \
	gen/mutate_nettrace.c \
	gen/mutate_nettrace_table.c
