# The CTF (LTTng) writer: gen/write_ctf*.c, listed in writer_table.c.
# A library of its own so tests/ctf/ can link the writer without the rest of
# gcgen; gcgen gets the same modules through libgcgen.
CTF_W_SOURCES = \
	gen/ctf_w.h gen/write_ctf.c gen/ctf_wlayout.c gen/ctf_wmeta.c \
	gen/mutate_ctf.h gen/mutate_ctf.c gen/mutate_ctf_table.c \
	gen/dirimage.h gen/dirimage.c gen/outdir.h gen/outdir.c
noinst_LIBRARIES += gen/libgcctf_w.a
gen_libgcctf_w_a_SOURCES = $(CTF_W_SOURCES)
gen_libgcgen_a_SOURCES += $(CTF_W_SOURCES)
