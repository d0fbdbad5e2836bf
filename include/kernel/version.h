/* Version strings for the boot banner. */
#ifndef _KERNEL_VERSION_H
#define _KERNEL_VERSION_H

#define PAGELAB_VERSION "0.1"
#define __STR(x) #x
#define STR(x) __STR(x)
#define PAGELAB_COMPILER                                                  \
	"gcc " STR(__GNUC__) "." STR(__GNUC_MINOR__) "." STR(__GNUC_PATCHLEVEL__)

#endif
