/*
 * hello - the smallest program pagelab can run: one write, one exit.
 * scripts/pagelab-run's acceptance check looks for its line.
 */
#include <string.h>
#include <unistd.h>

int main(void)
{
	static const char msg[] = "hello from pagelab\n";

	return write(1, msg, strlen(msg)) == (ssize_t)strlen(msg) ? 0 : 1;
}
