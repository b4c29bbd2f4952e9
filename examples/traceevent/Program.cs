// TraceEventDecoder FILE.nettrace: TraceEvent's view of a nettrace file as JSON lines in
// gcoracle compare's shape (docs/using-the-corpus.md). A decoder project built on TraceEvent
// prints this and runs it over the gcconform corpus with
//
//   gcoracle run --accept traceevent-4.0.0.accept --prefix y_ --container nettrace \
//       -- dotnet TraceEventDecoder.dll {}
//
// Every event is printed, in the order TraceEvent delivers it (events no parser claims
// too, without fields), so that events line up with the case by position. Exit status: 0,
// or 1 when TraceEvent rejected the file (after an "error" line).
using System;
using System.Globalization;
using System.IO;
using System.Text.Encodings.Web;
using System.Text.Json;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Parsers;
using Microsoft.Diagnostics.Tracing.Parsers.Clr;

public static class TraceEventDecoder
{
    static readonly JsonWriterOptions Options = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };
    [ThreadStatic] static Stream? Out;

    static int Main(string[] args)
    {
        if (args.Length != 1)
        {
            Console.Error.WriteLine("usage: TraceEventDecoder FILE.nettrace");
            return 2;
        }
        using var stdout = Console.OpenStandardOutput();
        using var buffered = new BufferedStream(stdout, 1 << 16);
        int rc = Decode(args[0], buffered);
        buffered.Flush();
        return rc;
    }

    // The JSON lines of one file into output; 0, or 1 when TraceEvent rejected it.
    public static int Decode(string path, Stream output)
    {
        Out = output;
        Line(w =>
        {
            w.WriteString("type", "decoder");
            w.WriteString("name", "TraceEvent 4.0.0");
            w.WriteStartArray("formats"); w.WriteStringValue("nettrace"); w.WriteEndArray();
            w.WriteStartArray("checks"); w.WriteStringValue("container"); w.WriteEndArray();
            w.WriteBoolean("codes", false);
        });
        int rc = 0;
        try
        {
            using var source = new EventPipeEventSource(path);
            // Subscribing makes TraceEvent parse the runtime's events with its templates.
            source.Clr.All += _ => { };
            new ClrPrivateTraceEventParser(source).All += _ => { };
            new ClrRundownTraceEventParser(source).All += _ => { };
            source.AllEvents += Event;
            source.Process();
        }
        catch (Exception ex)
        {
            Line(w => { w.WriteString("type", "error"); w.WriteString("message", ex.GetType().Name + ": " + ex.Message); });
            rc = 1;
        }
        return rc;
    }

    static void Event(TraceEvent e)
    {
        Line(w =>
        {
            w.WriteString("type", "event");
            w.WriteString("name", e.EventName);
            w.WriteString("provider", e.ProviderName);
            w.WriteNumber("id", (int)e.ID);
            w.WriteNumber("version", e.Version);
#pragma warning disable CS0618 // "discouraged": the raw QPC ticks are what the corpus holds
            w.WriteNumber("timestamp", e.TimeStampQPC);
#pragma warning restore CS0618
            w.WriteNumber("thread", e.ThreadID);
            w.WriteNumber("process", e.ProcessID);
            var names = e.PayloadNames;
            if (names == null || names.Length == 0)
                return; // an event no parser claims: no fields
            w.WriteStartObject("fields");
            for (int i = 0; i < names.Length; i++)
            {
                w.WritePropertyName(names[i]);
                object? v;
                try { v = e.PayloadValue(i); }
                catch (Exception) { v = null; }
                Value(w, v);
            }
            w.WriteEndObject();
        });
    }

    // A line reaches the output whole or not at all (body may throw half-way).
    static void Line(Action<Utf8JsonWriter> body)
    {
        var line = new MemoryStream();
        using (var w = new Utf8JsonWriter(line, Options))
        {
            w.WriteStartObject();
            body(w);
            w.WriteEndObject();
        }
        line.WriteByte((byte)'\n');
        line.WriteTo(Out!);
    }

    // Integers exactly (never through a double), enums as their numbers, byte arrays as hex.
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
                w.WriteNumberValue(Convert.ToUInt64(v, CultureInfo.InvariantCulture)); break;
            case sbyte or short or int or long:
                w.WriteNumberValue(Convert.ToInt64(v, CultureInfo.InvariantCulture)); break;
            case float f: w.WriteNumberValue(f); break;
            case double d: w.WriteNumberValue(d); break;
            case Guid g: w.WriteStringValue(g.ToString("D")); break;
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
