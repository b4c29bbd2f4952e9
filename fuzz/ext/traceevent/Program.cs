// TraceEventRead: read one .nettrace with TraceEvent and decode every event's
// payload through its CLR parser (the way PerfView and dotnet-trace users
// read GC events). Exit 0: read; 1: rejected with an exception a reader may
// throw on bad input (IO, format, end of stream); 70: an exception that
// means a defect (null dereference, index out of range, bad cast, overflow,
// ...). Uncatchable failures (stack overflow, access violation) kill the
// process: gcextrun records them as crashes.
using System;
using System.IO;
using Microsoft.Diagnostics.Tracing;

static class TraceEventRead
{
    static int Main(string[] args)
    {
        if (args.Length != 1)
        {
            Console.Error.WriteLine("usage: TraceEventRead FILE.nettrace");
            return 2;
        }
        long events = 0, fields = 0;
        try
        {
            using (var source = new EventPipeEventSource(args[0]))
            {
                source.Clr.All += delegate (TraceEvent e)
                {
                    events++;
                    // Touch every payload field: that is where decoders read.
                    for (int i = 0; i < e.PayloadNames.Length; i++)
                    {
                        object v = e.PayloadValue(i);
                        if (v != null)
                            fields++;
                    }
                    e.ToString();
                };
                source.Dynamic.All += delegate (TraceEvent e) { events++; };
                source.Process();
            }
            Console.WriteLine("events " + events + " fields " + fields);
            return 0;
        }
        catch (Exception ex) when (ex is NullReferenceException || ex is IndexOutOfRangeException ||
                                   ex is ArgumentOutOfRangeException || ex is InvalidCastException ||
                                   ex is OverflowException || ex is DivideByZeroException ||
                                   ex is AccessViolationException || ex is OutOfMemoryException)
        {
            Console.Error.WriteLine("defect: " + ex.GetType().FullName + ": " + ex.Message);
            Console.Error.WriteLine(ex.StackTrace);
            return 70;
        }
        catch (Exception ex)
        {
            Console.Error.WriteLine("rejected: " + ex.GetType().FullName + ": " + ex.Message);
            return 1;
        }
    }
}
