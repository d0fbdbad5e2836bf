/*
 * mm/init.c: bring up memory management, in this order:
 *   1. memblock already knows RAM and the reserved ranges (boot code);
 *   2. paging_init(): the final kernel page tables;
 *   3. mem_map: a struct page per frame, all marked reserved;
 *   4. memblock_free_all(): every unreserved frame to the buddy allocator.
 */
#include <mm/mm.h>
#include <mm/gfp.h>
#include <mm/memblock.h>
#include <mm/pgtable.h>
#include <kernel/printk.h>
#include <kernel/string.h>

struct page *mem_map;
unsigned long max_pfn;


static void init_mem_map(void)
{
	size_t size = max_pfn * sizeof(struct page);

	mem_map = phys_to_virt(memblock_alloc(size, PAGE_SIZE));
	for (unsigned long pfn = 0; pfn < max_pfn; pfn++) {
		struct page *p = &mem_map[pfn];

		p->flags = 1UL << PG_reserved;
		p->_mapcount = -1;
		INIT_LIST_HEAD(&p->lru);
	}
}

void mem_init(void)
{
	unsigned long freed;

	max_pfn = memblock_end_of_ram() >> PAGE_SHIFT;
	paging_init();
	init_mem_map();
	page_owner_init();	/* from memblock too, before it hands over */
	freed = memblock_free_all();
	paging_allocator_ready();
	pr_info("Memory: %luK/%luK available (%luK kernel code, %luK rwdata, "
		"%luK rodata, %luK reserved)\n",
		freed << (PAGE_SHIFT - 10), memblock_total_ram() >> 10,
		(unsigned long)(_etext - _text) >> 10,
		(unsigned long)(_end - _erodata) >> 10,
		(unsigned long)(_erodata - _etext) >> 10,
		(memblock_total_ram() >> 10) - (freed << (PAGE_SHIFT - 10)));
}
