# Sourced by the LTTng capture scripts (capture_lttng.sh, capture_lttng_multi.sh): finds
# LTTng 2.12 and starts a session daemon of our own for the capture.
#
# CoreCLR's libcoreclrtraceptprovider.so (x64; .NET Core 3.1.3 and .NET 8 to 11 alike) links
# liblttng-ust.so.0, i.e. LTTng-UST 2.12, and a 2.12 application can only be
# traced by lttng-tools 2.12 (2.13 changed the UST ABI). Debian 12 ships 2.13
# only, so LTTNG_PREFIX names a directory holding LTTng 2.12 (usr/bin/lttng,
# usr/bin/lttng-sessiond, usr/lib/x86_64-linux-gnu/...): on Debian 12 make it
# from bullseye's packages without touching the system's apt state:
#   echo 'deb http://deb.debian.org/debian bullseye main' >/tmp/b.list
#   O="-o Dir::State::Lists=/tmp/apt-lists -o Dir::Etc::SourceList=/tmp/b.list
#      -o Dir::Etc::SourceParts=/nonexistent -o Dir::Cache=/tmp/apt-cache"
#   mkdir -p /tmp/apt-lists/partial /tmp/apt-cache/archives/partial
#   apt-get $O update && apt-get $O download lttng-tools=2.12.3-1 \
#     liblttng-ctl0=2.12.3-1 liblttng-ust0=2.12.1-1 liblttng-ust-ctl4=2.12.1-1 liburcu6=0.12.2-1
#   for d in *.deb; do dpkg -x "$d" "$LTTNG_PREFIX"; done
#
# lttng_find NAME: sets $lttng and $sessiond (and LD_LIBRARY_PATH for the
# prefix), or exits 77 (skipped) saying why, NAME being the caller's name.
# lttng_start DIR: starts lttng-sessiond (log DIR/sessiond.log, LTTNG_HOME
# DIR/home) in the foreground of a background job, so that its process id
# is known, and stops it, by that id, when the caller exits.

lttng_find() {
	lttng_prefix=${LTTNG_PREFIX:-}
	lttng_lib=$lttng_prefix/usr/lib/x86_64-linux-gnu
	if [ -n "$lttng_prefix" ]; then
		lttng=$lttng_prefix/usr/bin/lttng
		sessiond=$lttng_prefix/usr/bin/lttng-sessiond
		export LD_LIBRARY_PATH="$lttng_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
		# The session daemon validates the sessions it loads at start-up against
		# this schema, and fails without it.
		export LTTNG_SESSION_CONFIG_XSD_PATH="$lttng_prefix/usr/share/xml/lttng"
	else
		lttng=$(command -v lttng || true)
		sessiond=$(command -v lttng-sessiond || true)
	fi
	if [ ! -x "$lttng" ] || [ ! -x "$sessiond" ] ||
		! ldconfig -p 2>/dev/null | grep -q liblttng-ust.so.0 && [ ! -e "$lttng_lib/liblttng-ust.so.0" ]; then
		echo "$1: no LTTng 2.12 (lttng, lttng-sessiond, liblttng-ust.so.0): set LTTNG_PREFIX (see tests/real/lttng_session.sh)" >&2
		exit 77
	fi
}

lttng_start() {
	lttng_dir=$1
	export LTTNG_HOME="$lttng_dir/home"
	mkdir -p "$LTTNG_HOME"
	set --
	[ -n "$lttng_prefix" ] &&
		set -- --consumerd64-path="$lttng_lib/lttng/libexec/lttng-consumerd" --consumerd64-libdir="$lttng_lib"
	"$sessiond" --no-kernel "$@" >"$lttng_dir/sessiond.log" 2>&1 &
	sessiond_pid=$!
	trap '"$lttng" destroy -a >/dev/null 2>&1; kill "$sessiond_pid" 2>/dev/null; wait "$sessiond_pid" 2>/dev/null' EXIT
	i=0
	until "$lttng" list >/dev/null 2>&1; do
		i=$((i + 1))
		if [ $i -gt 50 ] || ! kill -0 "$sessiond_pid" 2>/dev/null; then
			echo "the LTTng session daemon did not start:" >&2
			cat "$lttng_dir/sessiond.log" >&2
			exit 1
		fi
		sleep 0.2
	done
}
