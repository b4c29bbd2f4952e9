// GC workload + in-process recorder for the real-runtime capture kit (see ../capture.sh).
//
//   GcWorkload OUT.jsonl [KEYWORDS_HEX [LEVEL]]
//
// Builds for every runtime of the matrix (netcoreapp3.1 to .NET 11; tests/real/runtimes/):
// APIs newer than 3.1 are behind #if. Two optional variables serve captures the workload
// does not start itself: GCWORKLOAD_SUMMARY=FILE also writes the closing summary line to FILE
// (a tracing client that launches the workload keeps its stdout), and GCWORKLOAD_GO=FILE makes
// it wait, up to 30 s, for FILE to exist before the first phase (a client attaching by pid
// must be listening first).
//
// Runs a short, deterministic-in-shape set of GC scenarios while an EventListener records
// every Microsoft-Windows-DotNETRuntime event it is given as one JSON object per line.
// The nettrace written by DOTNET_EnableEventPipe (set by capture.sh) is the byte-exact
// ground truth; this JSON is the runtime's own decoding of the same events, which is what
// the gcoracle decoder is compared against field by field. Two limits of that decoding:
// it stops at the first variable-length part (struct arrays such as Values, GCDynamicEvent's
// Data and the ClrInstanceID after it are absent), and its task/opcode are the managed
// EventSource's defaults, not what the native manifest says.

using System;
using System.Collections.Generic;
using System.Diagnostics.Tracing;
using System.Globalization;
using System.IO;
using System.Runtime;
using System.Runtime.InteropServices;
using System.Text.Encodings.Web;
using System.Text.Json;
using System.Threading;

namespace GcConform.Workload;

static class Program
{
    // GC | GCHandle | GCHeapSurvivalAndMovement.
    const ulong DefaultKeywords = 0x1 | 0x2 | 0x400000;

    static int Main(string[] args)
    {
        if (args.Length < 1 || args.Length > 3)
        {
            Console.Error.WriteLine("usage: GcWorkload OUT.jsonl [KEYWORDS_HEX [LEVEL]]");
            return 2;
        }
        ulong keywords = args.Length >= 2
            ? ulong.Parse(args[1].StartsWith("0x", StringComparison.OrdinalIgnoreCase) ? args[1][2..] : args[1],
                          NumberStyles.HexNumber, CultureInfo.InvariantCulture)
            : DefaultKeywords;
        // The listener must ask for the level the trace session asks for, or it decodes
        // events the file never had.
        var level = args.Length == 3 ? (EventLevel)int.Parse(args[2], CultureInfo.InvariantCulture) : EventLevel.Verbose;

        WaitForGo();
        long written;
        using (var listener = new GcListener(args[0], keywords, level))
        {
            Scenarios.Run(listener.Marker, listener.RequestHeapWalk);
            listener.Drain(TimeSpan.FromSeconds(5));
            written = listener.Count;
        }
        // 3.1's sessions (its file and an attached client's stream) are flushed by the
        // runtime's streaming thread, which it does not run again at exit: the last GC's events
        // were lost to the file now and then. An attached client gets the same second.
        if (Environment.Version.Major < 5 || Environment.GetEnvironmentVariable("GCWORKLOAD_GO") is { Length: > 0 })
            Thread.Sleep(1000);
        string summary =
            $"runtime={Environment.Version} rid={Rid()} server={GCSettings.IsServerGC} latency={GCSettings.LatencyMode} " +
            $"gcs={GC.CollectionCount(0)}/{GC.CollectionCount(1)}/{GC.CollectionCount(2)} events={written}";
        Console.WriteLine(summary);
        if (Environment.GetEnvironmentVariable("GCWORKLOAD_SUMMARY") is { Length: > 0 } path)
            File.WriteAllText(path, summary + "\n");
        return 0;
    }

    static void WaitForGo()
    {
        if (Environment.GetEnvironmentVariable("GCWORKLOAD_GO") is not { Length: > 0 } go) return;
        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (!File.Exists(go) && DateTime.UtcNow < deadline) Thread.Sleep(50);
    }

    static string Rid()
    {
#if NET5_0_OR_GREATER
        return RuntimeInformation.RuntimeIdentifier;
#else
        // 3.1 has no RuntimeIdentifier property; the workload is only published for linux-x64.
        string os = RuntimeInformation.IsOSPlatform(OSPlatform.Linux) ? "linux"
            : RuntimeInformation.IsOSPlatform(OSPlatform.Windows) ? "win" : "osx";
        return os + "-" + RuntimeInformation.ProcessArchitecture.ToString().ToLowerInvariant();
#endif
    }
}

sealed class GcListener : EventListener
{
    const string Provider = "Microsoft-Windows-DotNETRuntime";
    const ulong GCHeapCollectKeyword = 0x800000;
    const long MaxExactJson = 1L << 53;

    // OnEventSourceCreated runs from the base constructor, before our constructor body,
    // so sources seen then are parked here (field initialisers run before the base call).
    readonly List<EventSource> _pending = new();
    readonly object _lock = new();
    readonly ManualResetEventSlim _drained = new(false);
    readonly JsonWriterOptions _jsonOptions = new()
    {
        // Type names must reach the file as real UTF-8, not \uXXXX escapes.
        Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
    };
    FileStream? _out;
    EventSource? _runtime;
    readonly ulong _keywords;
    readonly EventLevel _level;
    long _count;
    long _drainCount = long.MaxValue;

    public GcListener(string path, ulong keywords, EventLevel level)
    {
        _keywords = keywords;
        _level = level;
        _out = new FileStream(path, FileMode.Create, FileAccess.Write, FileShare.Read, 1 << 16);
        List<EventSource> early;
        lock (_lock) { early = new List<EventSource>(_pending); _pending.Clear(); }
        foreach (var s in early) Enable(s);
    }

    public long Count => Interlocked.Read(ref _count);

    protected override void OnEventSourceCreated(EventSource source)
    {
        if (source.Name != Provider) return;
        if (_out is null) { lock (_lock) _pending.Add(source); return; }
        Enable(source);
    }

    // Turning GCHeapCollect on is what makes the runtime walk the heap (one induced GC that
    // emits the GCBulk* events), so it is held back until the workload asks for the walk.
    // The runtime also walks once when this listener's session starts if another session
    // (the nettrace file) already has the keyword: the provider sees the union of sessions.
    void Enable(EventSource s)
    {
        _runtime = s;
        EnableEvents(s, _level, (EventKeywords)(_keywords & ~GCHeapCollectKeyword));
    }

    public void RequestHeapWalk()
    {
        if (_runtime != null && (_keywords & GCHeapCollectKeyword) != 0)
            EnableEvents(_runtime, _level, (EventKeywords)_keywords);
    }

    // Runtime events reach the listener through an EventPipe session polled by a dispatcher
    // thread, so they lag behind the code that caused them, and the newest events of a thread
    // can stay undelivered until something newer is written. Drain forces a GC and waits for
    // its GCEnd, forcing further GCs to push it out; that GCEnd bounds everything before it.
    public void Drain(TimeSpan timeout)
    {
        GC.Collect();
        Interlocked.Exchange(ref _drainCount, GC.CollectionCount(0));
        var deadline = DateTime.UtcNow + timeout;
        while (!_drained.Wait(TimeSpan.FromMilliseconds(250)))
        {
            if (DateTime.UtcNow > deadline)
            {
                Console.Error.WriteLine("warning: final GCEnd not seen; listener output may be truncated");
                return;
            }
            GC.Collect(0, GCCollectionMode.Forced, blocking: true);
        }
    }

    // Markers are written at once, runtime events only when dispatched, so in the file a
    // marker can precede events that happened before it: order by timestamp, not by line.
    public void Marker(string phase)
    {
        WriteLine(w =>
        {
            w.WriteString("marker", phase);
            w.WriteString("timestamp", DateTime.UtcNow.ToString("o", CultureInfo.InvariantCulture));
        });
    }

    protected override void OnEventWritten(EventWrittenEventArgs e)
    {
        if (_out is null) return;
        Interlocked.Increment(ref _count);
        WriteLine(w =>
        {
            w.WriteString("name", e.EventName);
            w.WriteNumber("id", e.EventId);
            w.WriteNumber("version", e.Version);
            w.WriteString("keywords", "0x" + ((ulong)e.Keywords).ToString("x", CultureInfo.InvariantCulture));
            w.WriteNumber("level", (int)e.Level);
            w.WriteNumber("opcode", (int)e.Opcode);
            w.WriteNumber("task", (int)e.Task);
            w.WriteNumber("os_thread_id", e.OSThreadId);
            w.WriteString("timestamp", e.TimeStamp.ToUniversalTime().ToString("o", CultureInfo.InvariantCulture));
            w.WriteStartObject("payload");
            var names = e.PayloadNames;
            var values = e.Payload;
            int n = values?.Count ?? 0;
            for (int i = 0; i < n; i++)
            {
                w.WritePropertyName(names != null && i < names.Count ? names[i] : "field" + i);
                WriteValue(w, values![i]);
            }
            w.WriteEndObject();
        });

        if (e.EventName != null && e.EventName.StartsWith("GCEnd", StringComparison.Ordinal)
            && e.PayloadNames is { } pn && e.Payload is { } pv)
        {
            int i = pn.IndexOf("Count");
            if (i >= 0 && Convert.ToInt64(pv[i], CultureInfo.InvariantCulture) >= Interlocked.Read(ref _drainCount))
                _drained.Set();
        }
    }

    void WriteLine(Action<Utf8JsonWriter> body)
    {
        lock (_lock)
        {
            if (_out is null) return;
            using (var w = new Utf8JsonWriter(_out, _jsonOptions))
            {
                w.WriteStartObject();
                body(w);
                w.WriteEndObject();
            }
            _out.WriteByte((byte)'\n');
        }
    }

    static void WriteValue(Utf8JsonWriter w, object? v)
    {
        switch (v)
        {
            case null: w.WriteNullValue(); break;
            case string s: w.WriteStringValue(s); break;
            case bool b: w.WriteBooleanValue(b); break;
            case byte or sbyte or short or ushort or int or uint:
                w.WriteNumberValue(Convert.ToInt64(v, CultureInfo.InvariantCulture)); break;
            case long l: WriteInteger(w, l); break;
            case nint p: WriteInteger(w, p); break;
            case ulong u: WriteUnsigned(w, u); break;
            case nuint up: WriteUnsigned(w, up); break;
            case float f: WriteReal(w, f); break;
            case double d: WriteReal(w, d); break;
            case char c: w.WriteStringValue(c.ToString()); break;
            case Guid g: w.WriteStringValue(g.ToString()); break;
            case DateTime dt: w.WriteStringValue(dt.ToString("o", CultureInfo.InvariantCulture)); break;
            case byte[] bytes: w.WriteStringValue(BitConverter.ToString(bytes).Replace("-", "").ToLowerInvariant()); break;
            case IEnumerable<KeyValuePair<string, object?>> dict:
                w.WriteStartObject();
                foreach (var kv in dict) { w.WritePropertyName(kv.Key); WriteValue(w, kv.Value); }
                w.WriteEndObject();
                break;
            case System.Collections.IEnumerable seq:
                w.WriteStartArray();
                foreach (var item in seq) WriteValue(w, item);
                w.WriteEndArray();
                break;
            default: w.WriteStringValue(v.ToString()); break;
        }
    }

    // Values a double cannot hold exactly go out as decimal strings so nothing is rounded.
    static void WriteInteger(Utf8JsonWriter w, long l)
    {
        if (l > -MaxExactJson && l < MaxExactJson) w.WriteNumberValue(l);
        else w.WriteStringValue(l.ToString(CultureInfo.InvariantCulture));
    }

    static void WriteUnsigned(Utf8JsonWriter w, ulong u)
    {
        if (u < MaxExactJson) w.WriteNumberValue(u);
        else w.WriteStringValue(u.ToString(CultureInfo.InvariantCulture));
    }

    static void WriteReal(Utf8JsonWriter w, double d)
    {
        if (double.IsFinite(d)) w.WriteNumberValue(d);
        else w.WriteStringValue(d.ToString(CultureInfo.InvariantCulture));
    }

    public override void Dispose()
    {
        base.Dispose(); // stops delivery first, so nothing races the close below
        lock (_lock)
        {
            _out?.Flush(true);
            _out?.Dispose();
            _out = null;
        }
        _drained.Dispose();
    }
}
