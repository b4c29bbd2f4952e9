# Tests against the real .NET runtime (skipped without dotnet) and its peers.
