// The GC scenarios. Each phase is there to make the runtime emit a particular family of
// events (or field values); sizes are chosen to stay well under ten seconds in total.
// APIs newer than .NET Core 3.1 are behind #if (pinned-object heap and GCKind: 5.0;
// DependentHandle: 6.0; aggressive collections: 7.0); 3.1 runs the rest.

using System;
using System.Collections.Generic;
using System.Runtime;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace GcConform.Workload;

// Fields exist only to give the objects size.
#pragma warning disable CS0649
sealed class Small { public long A, B; public object? Next; }

// Non-ASCII type names make GCAllocationTick's TypeName exercise UTF-16 beyond Latin-1.
sealed class Ünïcødé { public long A, B, C; }
sealed class 日本語型 { public long A, B, C; }
#pragma warning restore CS0649

sealed class Finalizable
{
    public static int Finalized;
    readonly byte[] _ballast = new byte[64];
    ~Finalizable() { Interlocked.Increment(ref Finalized); GC.KeepAlive(_ballast); }
}

static class Scenarios
{
    // Keeps allocations observable so the JIT cannot elide them.
    static object? s_sink;

    public static void Run(Action<string> mark, Action heapWalk)
    {
        mark("small");
        var ring = new object?[4096];
        for (int i = 0; i < 1_000_000; i++)
        {
            var o = new Small { A = i };
            if ((i & 15) == 0) ring[(i >> 4) & 4095] = o;
        }

        mark("unicode-type-names");
        for (int i = 0; i < 60_000; i++) s_sink = new Ünïcødé { A = i };
        for (int i = 0; i < 60_000; i++) s_sink = new 日本語型 { A = i };

        mark("loh");
        var loh = new List<byte[]>();
        for (int i = 0; i < 40; i++)
        {
            var a = new byte[100_000 + i * 1000];
            if ((i & 1) == 0) loh.Add(a);
        }

        mark("threads");
        Threads();

        mark("poh");
        var poh = new List<byte[]>();
#if NET5_0_OR_GREATER
        for (int i = 0; i < 200; i++)
        {
            var a = GC.AllocateArray<byte>(4000, pinned: true);
            if ((i & 3) == 0) poh.Add(a);
        }
        poh.Add(GC.AllocateArray<byte>(200_000, pinned: true));
        poh.Add(GC.AllocateUninitializedArray<byte>(150_000, pinned: true));
#endif

        mark("induced-gen0");
        GC.Collect(0, GCCollectionMode.Forced, blocking: true, compacting: false);
        mark("induced-gen1");
        GC.Collect(1, GCCollectionMode.Forced, blocking: true, compacting: false);
        mark("induced-gen2-compacting");
        GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
        mark("induced-gen2-optimized");
        GC.Collect(2, GCCollectionMode.Optimized, blocking: true, compacting: false);

        mark("loh-compaction");
        loh.RemoveRange(0, loh.Count / 2);
        GCSettings.LargeObjectHeapCompactionMode = GCLargeObjectHeapCompactionMode.CompactOnce;
        GC.Collect();

        mark("background");
        BackgroundGc();

        mark("gen2-pressure");
        Gen2Pressure();

        mark("handles");
        Handles();

        // Last of the handle-related phases so the walk sees the handles, the dependent handle
        // and the ConditionalWeakTable entry while they are alive. A no-op unless the
        // GCHeapCollect keyword (0x800000) was asked for.
        mark("heap-walk");
        HandlesAlive(heapWalk);

        mark("fixed");
        Fixed();

        mark("finalizers");
        Finalizers();

        mark("memory-pressure");
        for (int i = 0; i < 8; i++) GC.AddMemoryPressure(16L << 20);
        s_sink = new byte[1 << 20];
        for (int i = 0; i < 8; i++) GC.RemoveMemoryPressure(16L << 20);

        mark("no-gc-region");
        if (GC.TryStartNoGCRegion(1 << 20))
        {
            s_sink = new byte[1000];
            // A GC on another thread (a background GC finishing) can end the
            // region between the check and the call, which then throws.
            try { if (GCSettings.LatencyMode == GCLatencyMode.NoGCRegion) GC.EndNoGCRegion(); }
            catch (InvalidOperationException) { }
        }

        mark("latency-modes");
        var old = GCSettings.LatencyMode;
        GCSettings.LatencyMode = GCLatencyMode.SustainedLowLatency;
        GC.Collect(1, GCCollectionMode.Forced, blocking: true);
        GCSettings.LatencyMode = GCLatencyMode.Batch;
        GC.Collect(1, GCCollectionMode.Forced, blocking: true);
        // LowLatency is a workstation mode; server GC ignores the request.
        GCSettings.LatencyMode = GCLatencyMode.LowLatency;
        for (int i = 0; i < 200_000; i++) s_sink = new Small { A = i };
        GCSettings.LatencyMode = old;

#if NET7_0_OR_GREATER
        mark("aggressive");
        GC.Collect(2, GCCollectionMode.Aggressive, blocking: true, compacting: true);
#endif

        // Precise allocated-bytes suspends the runtime for a reason other than GC, which shows
        // what GCSuspendEEBegin carries when no GC follows.
        mark("non-gc-suspension");
        for (int i = 0; i < 3; i++) s_sink = GC.GetTotalAllocatedBytes(precise: true);

        mark("end");
        GC.KeepAlive(ring);
        GC.KeepAlive(loh);
        GC.KeepAlive(poh);
        s_sink = null;
    }

    // A non-blocking forced gen2 collection is a background GC when concurrent GC is on;
    // allocating while it runs asks for foreground ephemeral GCs inside it.
    static void BackgroundGc()
    {
        var keep = new List<object>();
        for (int i = 0; i < 300_000; i++) keep.Add(new Small { A = i });
        GC.Collect(1, GCCollectionMode.Forced, blocking: true); // promote them toward gen2
        GC.Collect(1, GCCollectionMode.Forced, blocking: true);

#if NET5_0_OR_GREATER
        long before = GC.GetGCMemoryInfo(GCKind.Background).Index;
        Func<bool> done = () => GC.GetGCMemoryInfo(GCKind.Background).Index != before;
#else
        int before = GC.CollectionCount(2);
        Func<bool> done = () => GC.CollectionCount(2) != before;
#endif
        GC.Collect(2, GCCollectionMode.Forced, blocking: false);
        // Without concurrent GC that collection was a blocking one and no background GC ever
        // ends: the churn then only adds gen0 GCs, so it is kept short.
        var deadline = DateTime.UtcNow.AddSeconds(1.5);
        var churn = new object?[1024];
        int n = 0;
        while (!done() && DateTime.UtcNow < deadline)
        {
            for (int i = 0; i < 10_000; i++) churn[(n++) & 1023] = new Small { A = n };
        }
        GC.KeepAlive(keep);
    }

    // Lets the GC decide on its own (reasons other than Induced) by growing gen2 steadily.
    static void Gen2Pressure()
    {
        var old = new List<object>();
        var deadline = DateTime.UtcNow.AddSeconds(1.5);
        int gen2 = GC.CollectionCount(2);
        while (DateTime.UtcNow < deadline && GC.CollectionCount(2) < gen2 + 2)
        {
            for (int i = 0; i < 20_000; i++)
            {
                var o = new Small { A = i };
                if ((i & 3) == 0) old.Add(o);
            }
            if (old.Count > 3_000_000) old.RemoveRange(0, 1_000_000);
        }
        GC.KeepAlive(old);
    }

    // Allocation from several threads at once, as a server does: each thread keeps a share of
    // what it allocates (so GCs promote), allocates a large array now and then, and holds a
    // pinned handle across the GCs the others cause. Server GC spreads them over its heaps.
    static void Threads()
    {
        var threads = new Thread[4];
        for (int t = 0; t < threads.Length; t++)
        {
            int seed = t;
            threads[t] = new Thread(() =>
            {
                var keep = new List<object>();
                var pin = GCHandle.Alloc(new byte[1024], GCHandleType.Pinned);
                for (int i = 0; i < 250_000; i++)
                {
                    object o = (i % 5000) == seed ? new byte[90_000] : new Small { A = i };
                    if ((i & 7) == 0) keep.Add(o);
                    if (keep.Count > 20_000) keep.RemoveRange(0, 10_000);
                }
                pin.Free();
                GC.KeepAlive(keep);
            });
            threads[t].Start();
        }
        foreach (var th in threads) th.Join();
    }

    static void Handles()
    {
        var target = new Small();
        var pinnedTarget = new byte[256];
        var handles = new[]
        {
            GCHandle.Alloc(target, GCHandleType.Normal),
            GCHandle.Alloc(target, GCHandleType.Weak),
            GCHandle.Alloc(target, GCHandleType.WeakTrackResurrection),
            GCHandle.Alloc(pinnedTarget, GCHandleType.Pinned),
        };
#if NET6_0_OR_GREATER
        var dependent = new DependentHandle(target, new Small());
#endif
        var cwt = new ConditionalWeakTable<object, object>();
        cwt.Add(target, new Small());
        GC.Collect(0, GCCollectionMode.Forced, blocking: true);
        foreach (var h in handles) h.Free();
#if NET6_0_OR_GREATER
        dependent.Dispose();
#endif
        GC.KeepAlive(target);
        GC.KeepAlive(cwt);
    }

    static void HandlesAlive(Action heapWalk)
    {
        var target = new Small();
        var strong = GCHandle.Alloc(target, GCHandleType.Normal);
        var pinned = GCHandle.Alloc(new byte[64], GCHandleType.Pinned);
#if NET6_0_OR_GREATER
        var dependent = new DependentHandle(target, new Small());
#endif
        var cwt = new ConditionalWeakTable<object, object>();
        cwt.Add(target, new Ünïcødé());
        heapWalk();
        strong.Free();
        pinned.Free();
#if NET6_0_OR_GREATER
        dependent.Dispose();
#endif
        GC.KeepAlive(target);
        GC.KeepAlive(cwt);
    }

    static unsafe void Fixed()
    {
        var buf = new byte[512];
        var other = new long[64];
        fixed (byte* p = buf)
        fixed (long* q = other)
        {
            *p = 1;
            *q = 2;
            GC.Collect(0, GCCollectionMode.Forced, blocking: true);
            GC.Collect(1, GCCollectionMode.Forced, blocking: true, compacting: true);
        }
    }

    static void Finalizers()
    {
        MakeFinalizable(2000);
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static void MakeFinalizable(int n)
    {
        for (int i = 0; i < n; i++) s_sink = new Finalizable();
        s_sink = null;
    }
}
