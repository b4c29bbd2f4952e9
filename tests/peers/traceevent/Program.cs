// TraceEvent as a peer reader of gcgen's nettrace files.
//
//   TraceEventPeer FILE.nettrace...
//
// Reads each file with TraceEvent's EventPipeEventSource and prints, as JSON lines, every
// event of the runtime's providers that TraceEvent's CLR parsers decode (public, private
// and rundown): {"file", "name", "id", "version", "ts" (QPC ticks), "thread", "fields"},
// every payload field by the name TraceEvent gives it. Events of those providers that no
// CLR parser claims are counted per (id, version) and printed once per file as
// {"file", "unhandled": [[id, version, count], ...]}. A file TraceEvent cannot read gives
// {"file", "error": message}. Exit 0 unless the arguments are wrong.
//
//   TraceEventPeer --count FILE.nettrace...
//
// Counts instead, for tests/real/matrix.py: one line per file, {"file", "total", "providers":
// {name: events}, "runtime": {"id/version": events}}, every event TraceEvent dispatches, parsed
// or not (an independent count to hold gcoracle's totals against).

using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Text.Encodings.Web;
using System.Text.Json;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Parsers;

namespace GcConform.Peers;

static class Program
{
    const string Runtime = "Microsoft-Windows-DotNETRuntime";
    const string Rundown = "Microsoft-Windows-DotNETRuntimeRundown";
    const string Private = "Microsoft-Windows-DotNETRuntimePrivate";

    static readonly JsonWriterOptions Options = new()
    {
        Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
    };

    static int Main(string[] args)
    {
        if (args.Length == 0)
        {
            Console.Error.WriteLine("usage: TraceEventPeer FILE.nettrace...");
            return 2;
        }
        using var stdout = Console.OpenStandardOutput();
        using var output = new BufferedStream(stdout, 1 << 16);
        if (args[0] == "--count")
        {
            for (int i = 1; i < args.Length; i++)
                CountOne(args[i], output);
            return 0;
        }
        foreach (var path in args)
            ReadOne(path, output);
        return 0;
    }

    static void CountOne(string path, Stream output)
    {
        var providers = new SortedDictionary<string, long>(StringComparer.Ordinal);
        var runtime = new SortedDictionary<string, long>(StringComparer.Ordinal);
        long total = 0;
        string? error = null;
        try
        {
            using var source = new EventPipeEventSource(path);
            source.AllEvents += e =>
            {
                total++;
                string name = e.ProviderName;
                providers[name] = providers.GetValueOrDefault(name) + 1;
                // Unparsed events carry the provider's GUID, not its name.
                if (e.ProviderName == Runtime || e.ProviderGuid == ClrTraceEventParser.ProviderGuid)
                {
                    string key = ((int)e.ID).ToString(CultureInfo.InvariantCulture) + "/" +
                                 e.Version.ToString(CultureInfo.InvariantCulture);
                    runtime[key] = runtime.GetValueOrDefault(key) + 1;
                }
            };
            source.Process();
        }
        catch (Exception ex)
        {
            error = ex.GetType().Name + ": " + ex.Message;
        }
        Line(output, w =>
        {
            w.WriteString("file", path);
            if (error != null) w.WriteString("error", error);
            w.WriteNumber("total", total);
            w.WriteStartObject("providers");
            foreach (var kv in providers) w.WriteNumber(kv.Key, kv.Value);
            w.WriteEndObject();
            w.WriteStartObject("runtime");
            foreach (var kv in runtime) w.WriteNumber(kv.Key, kv.Value);
            w.WriteEndObject();
        });
        output.Flush();
    }

    static bool IsRuntime(string name) => name == Runtime || name == Rundown || name == Private;

    static void ReadOne(string path, Stream output)
    {
        var unhandled = new SortedDictionary<(int, int), int>();
        try
        {
            using var source = new EventPipeEventSource(path);
            Action<TraceEvent> write = e => Line(output, w =>
            {
                w.WriteString("file", path);
                w.WriteString("provider", e.ProviderName);
                w.WriteString("name", e.EventName);
                w.WriteNumber("id", (int)e.ID);
                w.WriteNumber("version", e.Version);
#pragma warning disable CS0618 // "discouraged": the raw QPC ticks are what gcoracle prints
                w.WriteNumber("ts", e.TimeStampQPC);
#pragma warning restore CS0618
                w.WriteNumber("thread", e.ThreadID);
                w.WriteStartObject("fields");
                var names = e.PayloadNames ?? Array.Empty<string>();
                for (int i = 0; i < names.Length; i++)
                {
                    w.WritePropertyName(names[i]);
                    object? v;
                    try { v = e.PayloadValue(i); }
                    catch (Exception ex) { v = "!" + ex.GetType().Name; }
                    Value(w, v);
                }
                w.WriteEndObject();
            });
            source.Clr.All += write;
            new ClrPrivateTraceEventParser(source).All += write;
            new Microsoft.Diagnostics.Tracing.Parsers.Clr.ClrRundownTraceEventParser(source).All += write;
            source.UnhandledEvents += e =>
            {
                if (!IsRuntime(e.ProviderName)) return;
                var key = ((int)e.ID, e.Version);
                unhandled[key] = unhandled.GetValueOrDefault(key) + 1;
            };
            source.Process();
        }
        catch (Exception ex)
        {
            Line(output, w => { w.WriteString("file", path); w.WriteString("error", ex.GetType().Name + ": " + ex.Message); });
        }
        Line(output, w =>
        {
            w.WriteString("file", path);
            w.WriteStartArray("unhandled");
            foreach (var kv in unhandled)
            {
                w.WriteStartArray();
                w.WriteNumberValue(kv.Key.Item1);
                w.WriteNumberValue(kv.Key.Item2);
                w.WriteNumberValue(kv.Value);
                w.WriteEndArray();
            }
            w.WriteEndArray();
        });
        output.Flush();
    }

    // A line reaches the output whole or not at all (body may throw half-way).
    static void Line(Stream output, Action<Utf8JsonWriter> body)
    {
        var line = new MemoryStream();
        using (var w = new Utf8JsonWriter(line, Options))
        {
            w.WriteStartObject();
            body(w);
            w.WriteEndObject();
        }
        line.WriteByte((byte)'\n');
        line.WriteTo(output);
    }

    // Integers go out exactly (as decimal strings past 2^53, which a double cannot hold),
    // enums as their numbers, everything else as TraceEvent's text for it.
    static void Value(Utf8JsonWriter w, object? v)
    {
        switch (v)
        {
            case null: w.WriteNullValue(); break;
            case string s: w.WriteStringValue(s); break;
            case bool b: w.WriteBooleanValue(b); break;
            case Enum en:
                Value(w, Convert.ChangeType(en, Enum.GetUnderlyingType(en.GetType()), CultureInfo.InvariantCulture));
                break;
            case byte or ushort or uint or ulong:
                Integer(w, Convert.ToUInt64(v, CultureInfo.InvariantCulture)); break;
            case sbyte or short or int or long:
                long l = Convert.ToInt64(v, CultureInfo.InvariantCulture);
                if (l >= 0) Integer(w, (ulong)l); else w.WriteStringValue(l.ToString(CultureInfo.InvariantCulture));
                break;
            case float f: w.WriteNumberValue(f); break;
            case double d: w.WriteNumberValue(d); break;
            case Guid g: w.WriteStringValue(g.ToString()); break;
            case byte[] bytes: w.WriteStringValue(Convert.ToHexString(bytes).ToLowerInvariant()); break;
            case System.Collections.IEnumerable seq:
                w.WriteStartArray();
                foreach (var item in seq) Value(w, item);
                w.WriteEndArray();
                break;
            default: w.WriteStringValue(v.ToString()); break;
        }
    }

    static void Integer(Utf8JsonWriter w, ulong u)
    {
        if (u < (1UL << 53)) w.WriteNumberValue(u);
        else w.WriteStringValue(u.ToString(CultureInfo.InvariantCulture));
    }
}
