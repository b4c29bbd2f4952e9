#!/bin/sh
# build_peers.sh - build the peer table's .NET peers into the build tree:
# the TraceEvent adapter (tests/peers/adapters/traceevent) once per TraceEvent
# version NuGet serves here, and `dotnet-trace` once per version (dotnet tool
# install --tool-path). A version that does not restore or build is reported
# and left out; the peer table lists what it ran. Run from the build tree
# (make peer-table does).
set -u
src=${top_srcdir:-.}
out=tests/peers
TE_VERSIONS=${TE_VERSIONS:-"2.0.56 3.1.21 3.2.5 3.2.6 3.2.8 4.0.0"}
DT_VERSIONS=${DT_VERSIONS:-"9.0.661903 10.0.731102 10.0.745401 10.0.750501"}
command -v dotnet >/dev/null || { echo "build_peers: no dotnet SDK: .NET peers skipped" >&2; exit 0; }
for v in $TE_VERSIONS; do
	d=$out/te/$v
	[ -f "$d/out/TraceEventAdapter.dll" ] && continue
	mkdir -p "$d"
	cp "$src/tests/peers/adapters/traceevent/Program.cs" \
		"$src/tests/peers/adapters/traceevent/TraceEventAdapter.csproj" "$d/"
	if ! dotnet build "$d/TraceEventAdapter.csproj" -nologo -v q -c Release -nodeReuse:false \
		-p:TraceEventVersion="$v" -o "$d/out" >"$d/build.log" 2>&1; then
		echo "build_peers: TraceEvent $v does not build here (see $d/build.log)" >&2
		rm -rf "$d/out"
	fi
done
for v in $DT_VERSIONS; do
	d=$out/dotnet-trace/$v
	[ -x "$d/dotnet-trace" ] && continue
	if ! dotnet tool install dotnet-trace --version "$v" --tool-path "$d" >"$out/dotnet-trace-$v.log" 2>&1; then
		echo "build_peers: dotnet-trace $v does not install here (see $out/dotnet-trace-$v.log)" >&2
		rm -rf "$d"
	fi
done
exit 0
