// A short GC workload for the machine-wide LTTng fixtures (../capture_lttng_multi.sh), built
// for each runtime with the projects of ../runtimes/ (netcoreapp3.1 to .NET 11).
//
//   GcWorkload MILLISECONDS [hold | bgc]
//
// For about MILLISECONDS it allocates in small steps (allocation-triggered gen0 GCs) and
// induces a gen1 and a blocking gen2 GC now and then; a step every 25 ms spreads a process's
// GCs over its life, interleaved with those of the other processes of the session. Then:
//   hold  keeps a large live heap and collects gen2 in a loop until it is killed, so that a
//         SIGKILL most likely lands inside a GC;
//   bgc   starts a background GC over a large live heap and returns from Main at once: the
//         process exits while that GC runs (the runtime does not wait for it).
// The workload is small on purpose: the fixtures must stay a few hundred KB.
// Prints one line: runtime, pid, GC counts.

using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;

static class Churn
{
    static int Main(string[] args)
    {
        if (args.Length < 1 || args.Length > 2 || (args.Length == 2 && args[1] != "hold" && args[1] != "bgc"))
        {
            Console.Error.WriteLine("usage: GcWorkload MILLISECONDS [hold | bgc]");
            return 2;
        }
        int ms = int.Parse(args[0]);
        var live = new List<byte[]>();
        var watch = Stopwatch.StartNew();
        for (int step = 1; watch.ElapsedMilliseconds < ms; step++)
        {
            for (int i = 0; i < 64; i++)
            {
                var a = new byte[16000 + i * 37];
                if (i % 8 == 0) live.Add(a);
            }
            if (live.Count > 400) live.RemoveRange(0, 200);
            if (step % 10 == 0) GC.Collect(step % 20 == 0 ? 2 : 1, GCCollectionMode.Forced, true);
            Thread.Sleep(25);
        }
        Console.WriteLine($"runtime={Environment.Version} pid={Process.GetCurrentProcess().Id} " +
                          $"gcs={GC.CollectionCount(0)}/{GC.CollectionCount(1)}/{GC.CollectionCount(2)}");
        string mode = args.Length == 2 ? args[1] : "";
        if (mode == "")
            return 0;
        var big = new object[mode == "bgc" ? 300000 : 200000];
        for (int i = 0; i < big.Length; i++) big[i] = new object[] { new byte[16] };
        if (mode == "bgc")
        {
            // blocking: false asks for a background GC (concurrent GC is on by default).
            GC.Collect(2, GCCollectionMode.Forced, false);
            GC.KeepAlive(big);
            return 0;
        }
        for (;;)
        {
            for (int i = 0; i < big.Length; i += 64) big[i] = new byte[64];
            GC.Collect(2, GCCollectionMode.Forced, true, true);
            Thread.Sleep(1);
        }
    }
}
