/*
 * sync - write every dirty buffer and page to disk (sync(2)).
 *   sync
 */
#include <unistd.h>

int main(void)
{
	sync();
	return 0;
}
