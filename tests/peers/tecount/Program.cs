// TraceEvent's side of make bench (tests/bench/side_by_side.sh): read one nettrace file
// with TraceEvent 4.0.0 as a .NET tool would, and print what it saw.
//
//   TraceEventCount count FILE   every event of the runtime's providers (public, private,
//                                rundown) that TraceEvent's CLR parsers decode, counted
//   TraceEventCount fields FILE  the same events, each payload field read (PayloadValue),
//                                as gcoracle --json reads every field
//
// Prints "events N" (and "fields N" with a checksum of the values, so that nothing
// read can be optimised away). Exit 0, or 1 when TraceEvent cannot read the file.

using System;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Parsers;
using Microsoft.Diagnostics.Tracing.Parsers.Clr;

namespace GcConform.Bench;

static class Program
{
    static long events, fields, sum;

    static int Main(string[] args)
    {
        if (args.Length != 2 || (args[0] != "count" && args[0] != "fields"))
        {
            Console.Error.WriteLine("usage: TraceEventCount count|fields FILE.nettrace");
            return 2;
        }
        bool all = args[0] == "fields";
        try
        {
            using var source = new EventPipeEventSource(args[1]);
            Action<TraceEvent> on = all ? ReadFields : _ => events++;
            source.Clr.All += on;
            new ClrPrivateTraceEventParser(source).All += on;
            new ClrRundownTraceEventParser(source).All += on;
            source.Process();
        }
        catch (Exception ex)
        {
            Console.Error.WriteLine("TraceEventCount: " + ex.GetType().Name + ": " + ex.Message);
            return 1;
        }
        Console.WriteLine(all ? $"events {events} fields {fields} checksum {sum}" : $"events {events}");
        return 0;
    }

    static void ReadFields(TraceEvent e)
    {
        events++;
        var names = e.PayloadNames;
        if (names == null)
            return;
        for (int i = 0; i < names.Length; i++)
        {
            object? v = e.PayloadValue(i);
            fields++;
            sum += v switch
            {
                null => 0,
                string s => s.Length,
                byte[] b => b.Length,
                IConvertible c when v is not Enum => c.GetTypeCode() switch
                {
                    TypeCode.Single or TypeCode.Double => 1,
                    TypeCode.UInt64 => (long)(ulong)v,
                    _ => c.ToInt64(null),
                },
                _ => v.GetHashCode(),
            };
        }
    }
}
