// One xUnit test per y_ nettrace case of the gcconform corpus: the TraceEvent-based
// decoder (../traceevent/Program.cs) decodes the case in this process, and
// `gcoracle compare --accept traceevent-4.0.0.accept` judges its output.
//
//   GCCONFORM_CORPUS=$(pkg-config --variable=corpusdir gcconform) \
//   GCCONFORM_ACCEPT=$(pkg-config --variable=accepteddir gcconform)/traceevent-4.0.0.accept \
//   dotnet test
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Text.Json;
using Xunit;

public class Corpus
{
    static readonly string Root = Environment.GetEnvironmentVariable("GCCONFORM_CORPUS") ?? "";
    static readonly string Accept = Environment.GetEnvironmentVariable("GCCONFORM_ACCEPT") ?? "";
    static readonly string Gcoracle = Environment.GetEnvironmentVariable("GCORACLE") ?? "gcoracle";

    public static IEnumerable<object[]> Cases() =>
        JsonDocument.Parse(File.ReadAllText(Path.Combine(Root, "index.json")))
            .RootElement.GetProperty("cases").EnumerateArray()
            .Where(c => c.GetProperty("class").GetString() == "y" &&
                        c.GetProperty("container").GetString() == "nettrace")
            .Select(c => new object[] { c.GetProperty("name").GetString()!,
                                        c.GetProperty("file").GetString()!,
                                        c.GetProperty("expect").GetString()! });

    [Theory, MemberData(nameof(Cases))]
    public void Decodes(string name, string file, string expect)
    {
        var output = new MemoryStream();
        TraceEventDecoder.Decode(Path.Combine(Root, file), output);
        var compare = Process.Start(new ProcessStartInfo(Gcoracle)
        {
            ArgumentList = { "compare", "--accept", Accept, Path.Combine(Root, expect), "-" },
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
        })!;
        var report = compare.StandardOutput.ReadToEndAsync();
        compare.StandardInput.BaseStream.Write(output.ToArray());
        compare.StandardInput.Close();
        compare.WaitForExit();
        Assert.True(compare.ExitCode == 0, $"{name}:\n{report.Result}");
    }
}
