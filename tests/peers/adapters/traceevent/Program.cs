// TraceEvent as a row of the peer table: one trace file, every event record TraceEvent
// delivers, as JSON lines (tests/peers/adapters/traceevent.py turns them into the shape
// `gcoracle compare` reads).
//
//   TraceEventAdapter FILE.nettrace|FILE.etl
//
// (.etl goes through ETWTraceEventSource, which calls advapi32's OpenTrace: on Linux it
// fails with DllNotFoundException, so the peer table gives TraceEvent no .etl cases.)
//
// Lines: {"type":"event","provider","id","version","timestamp" (QPC ticks),"thread",
// "te_name","handled" (a CLR parser of this TraceEvent version has a template for it),
// "fields" (TraceEvent's names and values)}; then {"type":"error","message"} if reading
// stopped on an exception. Every field is read and every event formatted (ToString), as
// PerfView and dotnet-trace do: that is where TraceEvent's payload bugs show.
//
// Exit status: 0 read to the end; 1 rejected (an exception a reader may throw on bad
// input: IO, format, end of stream); 70 an exception that means a defect (null
// dereference, index or argument out of range, other argument errors such as a duplicate
// dictionary key, bad cast, overflow, access violation); 71 out of
// memory (OutOfMemoryException: TraceEvent allocated what the input declared). A process
// killed by a signal is the runner's to see.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Text.Encodings.Web;
using System.Text.Json;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Parsers;
using Microsoft.Diagnostics.Tracing.Parsers.Clr;

namespace GcConform.Peers;

static class Program
{
    static readonly JsonWriterOptions Options = new()
    {
        Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
    };

    static int Main(string[] args)
    {
        if (args.Length != 1)
        {
            Console.Error.WriteLine("usage: TraceEventAdapter FILE");
            return 2;
        }
        using var stdout = Console.OpenStandardOutput();
        using var output = new BufferedStream(stdout, 1 << 16);
        int status = 0;
        try
        {
            TraceEventDispatcher source = args[0].EndsWith(".etl", StringComparison.OrdinalIgnoreCase)
                ? new ETWTraceEventSource(args[0])
                : new EventPipeEventSource(args[0]);
            using (source)
            {
                var handled = new HashSet<TraceEvent>(ReferenceEqualityComparer.Instance);
                Action<TraceEvent> mark = e => handled.Add(e);
                var clr = new ClrTraceEventParser(source);
                clr.All += mark;
                new ClrPrivateTraceEventParser(source).All += mark;
                new ClrRundownTraceEventParser(source).All += mark;
                source.AllEvents += e => Line(output, w => Event(w, e, handled.Remove(e)));
                source.Process();
            }
        }
        catch (Exception ex)
        {
            status = ex is OutOfMemoryException ? 71
                : ex is NullReferenceException || ex is IndexOutOfRangeException ||
                  ex is ArgumentOutOfRangeException || ex is InvalidCastException ||
                  ex is OverflowException || ex is DivideByZeroException ||
                  ex is AccessViolationException || ex is ArgumentException ? 70 : 1;
            Line(output, w =>
            {
                w.WriteString("type", "error");
                w.WriteString("message", ex.GetType().Name + ": " + ex.Message);
            });
            Console.Error.WriteLine(ex.ToString());
        }
        output.Flush();
        return status;
    }

    static void Event(Utf8JsonWriter w, TraceEvent e, bool handled)
    {
        w.WriteString("type", "event");
        w.WriteString("provider", e.ProviderName);
        w.WriteNumber("id", (int)e.ID);
        w.WriteNumber("version", e.Version);
        w.WriteNumber("timestamp", e.TimeStampQPC);
        w.WriteNumber("thread", e.ThreadID);
        w.WriteNumber("process", e.ProcessID);
        w.WriteString("te_name", e.EventName);
        w.WriteBoolean("handled", handled);
        w.WriteStartObject("fields");
        if (handled)
        {
            var names = e.PayloadNames ?? Array.Empty<string>();
            for (int i = 0; i < names.Length; i++)
            {
                w.WritePropertyName(names[i]);
                Value(w, e.PayloadValue(i));
            }
            e.ToString();
        }
        w.WriteEndObject();
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

    // Integers exactly (as decimal strings past 2^53), enums as their numbers, the rest as
    // TraceEvent's text for it.
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
                w.WriteStringValue(Convert.ToUInt64(v, CultureInfo.InvariantCulture).ToString(CultureInfo.InvariantCulture)); break;
            case sbyte or short or int or long:
                w.WriteStringValue(Convert.ToInt64(v, CultureInfo.InvariantCulture).ToString(CultureInfo.InvariantCulture)); break;
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
}
