#!/bin/sh
# make bench: gcoracle side by side with its peers and the physical limit,
# on the same files, in the same run (docs/oracle-performance.md):
#   nettrace V5 and V6  gcoracle --quiet (reads, decodes, checks everything)
#                       against TraceEvent 4.0.0 counting every CLR event;
#                       gcoracle --json and --cbor against TraceEvent reading
#                       every payload field (tests/peers/tecount);
#   CTF                 gcoracle --quiet against babeltrace2's dummy sink;
#   every container     gcoracle against cat reading the same bytes;
#   nettrace            gcoracle --quiet against the floor (bench/floor: a
#                       minimal walk that parses every container header and
#                       checks every payload against the spec tables);
#   every file container gcoracle --quiet and --json with --threads 2 against
#                       one thread (wall clock is what a second thread buys);
#                       compressed .etl also with --threads 3 (one buffer
#                       expanding worker beside the reading and writing threads).
# Each command runs BENCH_RUNS times (default 5), the commands of a round
# one after another, so that the machine's load falls on all alike; each
# figure is the median with the minimum and maximum, CPU time (user +
# system, of the whole process: TraceEvent's JIT start-up included) and wall
# clock, and the peak RSS. The load average is printed before and after.
# Ratios are of medians measured in this run; absolute rates depend on the
# machine and its load, ratios much less.
#
#   BENCH_SIZE=256M   bytes of each stream (K, M, G suffixes; 1G and 5G for
#                     the large runs: 5G took 16 minutes on two cores, loaded)
#   BENCH_RUNS=5      runs of each command
#   BENCH_FORMATS="nettrace-v5 nettrace-v6 etl etl-compressed ctf"
#   BENCH_DIR         where the streams go (default $TMPDIR or /tmp)
#
# usage: bench.sh BUILDDIR SRCDIR
set -u
top=${1:-.}
src=${2:-.}
gcgen=$top/gen/gcgen oracle=$top/oracle/gcoracle rusage=$top/tests/oracle/rusage
floor=$top/bench/floor
runs=${BENCH_RUNS:-5}
formats=${BENCH_FORMATS:-nettrace-v5 nettrace-v6 etl etl-compressed ctf}
size=$(echo "${BENCH_SIZE:-256M}" | awk '{
	n = $1 + 0; u = toupper(substr($1, length($1)))
	if (u == "K") n *= 1024; else if (u == "M") n *= 1048576; else if (u == "G") n *= 1073741824
	printf "%.0f", n }')
work=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/gcbench.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
[ "$size" -gt 0 ] || { echo "bench: BENCH_SIZE must be a size such as 256M or 1G" >&2; exit 2; }

# Bytes of a stream: a file, or the files of a trace directory.
size_of() {
	if [ -d "$1" ]; then find "$1" -type f -exec cat {} + | wc -c; else wc -c <"$1"; fi
}

# TraceEvent's side, built as tests/peers/traceevent is (NuGet, then offline
# from the local package folders); none without dotnet.
te=
proj=$src/tests/peers/tecount/TraceEventCount.csproj
if ! command -v dotnet >/dev/null 2>&1; then
	te_why="the .NET SDK (dotnet) is not installed"
else
	if ! dotnet restore "$proj" -nologo -v quiet >"$work/restore" 2>&1; then
		srcs=
		for d in /opt/nuget/packages "$HOME/.nuget/packages"; do
			[ -d "$d" ] && srcs="$srcs --source $d"
		done
		# shellcheck disable=SC2086
		dotnet restore "$proj" -nologo -v quiet $srcs >"$work/restore" 2>&1
	fi
	if dotnet build "$proj" -c Release --no-restore -nologo -v quiet -nodeReuse:false \
		>"$work/build" 2>&1; then
		te=$src/tests/peers/tecount/bin/Release/net10.0/TraceEventCount.dll
	else
		te_why="TraceEvent 4.0.0 could not be restored or built: $(grep -m1 error "$work/restore" "$work/build")"
	fi
fi
bt2=
if command -v babeltrace2 >/dev/null 2>&1; then bt2=babeltrace2; fi

echo "make bench: $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -srm), $(nproc) cores," \
	"$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)"
echo "streams of $size bytes (BENCH_SIZE), $runs runs each (BENCH_RUNS); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
[ -n "$te" ] || echo "TraceEvent: not measured: $te_why"
[ -n "$bt2" ] || echo "babeltrace2: not measured: not installed (apt-get install babeltrace2)"

# The commands, one per line: FORMAT|NAME|COMMAND (run with sh -c, output
# to /dev/null).
: >"$work/cmds"
for fmt in $formats; do
	f=$work/stream.$fmt
	# gcgen's bytes per GC from a small stream, then the size asked for.
	"$gcgen" -q -f "$fmt" --gcs 2000 -o "$work/probe.$fmt" || { echo "bench: gcgen -f $fmt failed" >&2; exit 1; }
	per=$(($(size_of "$work/probe.$fmt") / 2000))
	rm -rf "$work/probe.$fmt"
	gcs=$((size / per + 1))
	"$gcgen" -q -f "$fmt" --gcs "$gcs" -o "$f" || { echo "bench: gcgen -f $fmt --gcs $gcs failed" >&2; exit 1; }
	bytes=$(size_of "$f")
	events=$("$oracle" --quiet "$f" | awk 'NR == 1 { print $1 }')
	echo "$fmt $bytes $events" >>"$work/streams"
	if [ -d "$f" ]; then
		echo "$fmt|cat|find $f -type f -exec cat {} +" >>"$work/cmds"
	else
		echo "$fmt|cat|cat $f" >>"$work/cmds"
	fi
	echo "$fmt|gcoracle --quiet|$oracle --quiet $f" >>"$work/cmds"
	case $fmt in
	nettrace*)
		echo "$fmt|floor|$floor $f" >>"$work/cmds"
		if [ -n "$te" ]; then
			echo "$fmt|TraceEvent count|dotnet $te count $f" >>"$work/cmds"
			echo "$fmt|TraceEvent fields|dotnet $te fields $f" >>"$work/cmds"
		fi ;;
	ctf)
		[ -n "$bt2" ] && echo "$fmt|babeltrace2 dummy|babeltrace2 $f -c sink.utils.dummy" >>"$work/cmds" ;;
	esac
	echo "$fmt|gcoracle --json|$oracle --json $f" >>"$work/cmds"
	echo "$fmt|gcoracle --cbor|$oracle --cbor $f" >>"$work/cmds"
	# The reader on a thread of its own (a directory is read with one).
	if [ ! -d "$f" ]; then
		echo "$fmt|gcoracle --quiet -T2|$oracle --quiet --threads 2 $f" >>"$work/cmds"
		echo "$fmt|gcoracle --json -T2|$oracle --json --threads 2 $f" >>"$work/cmds"
	fi
	if [ "$fmt" = etl-compressed ]; then
		echo "$fmt|gcoracle --quiet -T3|$oracle --quiet --threads 3 $f" >>"$work/cmds"
		echo "$fmt|gcoracle --json -T3|$oracle --json --threads 3 $f" >>"$work/cmds"
	fi
done

# Rounds: every command once per round. Result lines: FORMAT|NAME|cpu wall rss_kb
: >"$work/results"
r=0
while [ $r -lt "$runs" ]; do
	while IFS='|' read -r fmt name cmd; do
		line=$("$rusage" -o /dev/null -- sh -c "exec $cmd" </dev/null)
		st=$?
		# gcoracle exits 1 when it found errors: gcgen's realistic streams have none.
		if [ $st -ne 0 ]; then
			echo "bench: '$name' on $fmt failed (status $st): $cmd" >&2
			exit 1
		fi
		echo "$fmt|$name|$(echo "$line" | sed 's/.*wall=\([^ ]*\) cpu=\([^ ]*\) maxrss_kb=\([0-9]*\).*/\2 \1 \3/')" \
			>>"$work/results"
	done <"$work/cmds"
	r=$((r + 1))
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

# Per command: median, min, max of CPU and wall; peak RSS; rates from the
# median CPU time. Then the ratios of medians.
awk -F'|' -v streams="$work/streams" '
function sort(a, n,   i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t } }
function med(a, n) { return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
BEGIN { while ((getline l < streams) > 0) { split(l, s, " "); bytes[s[1]] = s[2]; events[s[1]] = s[3] } }
{
	k = $1 "|" $2; if (!(k in n)) { order[++nk] = k }
	split($3, v, " "); i = ++n[k]; cpu[k, i] = v[1]; wall[k, i] = v[2]
	if (v[3] > rss[k]) rss[k] = v[3]
}
END {
	for (j = 1; j <= nk; j++) {
		k = order[j]; m = n[k]
		for (i = 1; i <= m; i++) { c[i] = cpu[k, i]; w[i] = wall[k, i] }
		sort(c, m); sort(w, m)
		mc[k] = med(c, m); mw[k] = med(w, m); lo[k] = c[1]; hi[k] = c[m]; wlo[k] = w[1]; whi[k] = w[m]
	}
	fmtl = ""
	for (j = 1; j <= nk; j++) {
		k = order[j]; split(k, p, "|"); f = p[1]
		if (f != fmtl) {
			printf "\n%s: %.0f bytes, %.0f events\n", f, bytes[f], events[f]
			printf "  %-20s %22s %22s %9s %8s %8s\n", "", "CPU s: median [min-max]", "wall s: median [min-max]", "peak RSS", "Mev/s", "MB/s"
			fmtl = f
		}
		t = mc[k] > 0 ? mc[k] : 0.001
		printf "  %-20s %7.3f [%6.3f-%6.3f] %7.3f [%6.3f-%6.3f] %6.1f MB %8.2f %8.0f\n", p[2], mc[k], lo[k], hi[k], mw[k], wlo[k], whi[k],
		       rss[k] / 1024, events[f] / t / 1e6, bytes[f] / t / 1e6
	}
	print "\nratios of medians (CPU, wall): below 1, gcoracle took less"
	for (j = 1; j <= nk; j++) {
		k = order[j]; split(k, p, "|"); f = p[1]
		ratio(f, "gcoracle --quiet", "TraceEvent count")
		ratio(f, "gcoracle --json", "TraceEvent fields")
		ratio(f, "gcoracle --cbor", "TraceEvent fields")
		ratio(f, "gcoracle --quiet", "babeltrace2 dummy")
		ratio(f, "gcoracle --quiet", "cat")
		ratio(f, "gcoracle --quiet", "floor")
		threads(f, "--quiet", 2)
		threads(f, "--json", 2)
		threads(f, "--quiet", 3)
		threads(f, "--json", 3)
	}
}
function threads(f, m, t,   ka, kb) {
	ka = f "|gcoracle " m " -T" t; kb = f "|gcoracle " m
	if (!(ka in mc) || !(kb in mc) || done[ka, kb]++) return
	printf "  %-12s gcoracle %-8s --threads %d / 1: wall %6.3f  CPU %6.3f  (%s)\n", f, m, t,
	       mw[ka] / (mw[kb] > 0 ? mw[kb] : 0.001), mc[ka] / (mc[kb] > 0 ? mc[kb] : 0.001),
	       mw[ka] <= mw[kb] ? sprintf("%d threads %.2fx faster by the clock", t, mw[kb] / (mw[ka] > 0 ? mw[ka] : 0.001)) \
	                        : sprintf("%d threads %.2fx slower by the clock", t, mw[ka] / (mw[kb] > 0 ? mw[kb] : 0.001))
}
function ratio(f, a, b,   ka, kb) {
	ka = f "|" a; kb = f "|" b
	if (!(ka in mc) || !(kb in mc) || done[ka, kb]++) return
	printf "  %-12s %-17s / %-18s CPU %6.3f  wall %6.3f  (%s)\n", f, a, b,
	       mc[ka] / (mc[kb] > 0 ? mc[kb] : 0.001), mw[ka] / (mw[kb] > 0 ? mw[kb] : 0.001),
	       mc[ka] <= mc[kb] ? sprintf("gcoracle %.1fx faster", mc[kb] / (mc[ka] > 0 ? mc[ka] : 0.001)) \
	                        : sprintf("%s %.1fx faster", b, mc[ka] / (mc[kb] > 0 ? mc[kb] : 0.001))
}' "$work/results"
