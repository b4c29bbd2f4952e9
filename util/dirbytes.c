/* dirbytes.c - sizes of a directory's regular files (dirbytes.h). */
#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>

#include "util/dirbytes.h"

uint64_t util_dir_bytes(const char *dir, int follow)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	uint64_t total = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char p[4096];
		struct stat st;
		int n = snprintf(p, sizeof p, "%s/%s", dir, e->d_name);

		if (n < 0 || (size_t)n >= sizeof p)
			continue;
		if ((follow ? stat(p, &st) : lstat(p, &st)) == 0 && S_ISREG(st.st_mode))
			total += (uint64_t)st.st_size;
	}
	closedir(d);
	return total;
}
