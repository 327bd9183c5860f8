/* alloc_shim.c: LD_PRELOAD allocation counter for the vramcalc CPU memory harness.
 *
 * Two counters, each with a live value and a resettable peak:
 *   tensor: bytes handed out by PyTorch's CPU tensor allocator. c10::alloc_cpu(size_t) and
 *           c10::free_cpu(void*) (libc10.so) are interposed; libc10 and libtorch_cpu call them
 *           through the PLT, so LD_PRELOAD reaches every tensor storage. Counted in requested
 *           bytes, like torch.cuda.memory_allocated (which rounds each block up to 512 B).
 *   heap:   every malloc/calloc/realloc/posix_memalign/aligned_alloc/memalign/valloc/free of the
 *           process, counted with malloc_usable_size (tensors + autograd graph nodes + Python
 *           objects + BLAS/oneDNN scratch). Python's own arenas come from mmap and are not seen.
 * Read from Python with ctypes: shim_tensor_current(), shim_tensor_peak(), shim_heap_current(),
 * shim_heap_peak(), shim_reset_peak() (both peaks := current), shim_reset_tensor_peak(), shim_tensor_count().
 * Build: gcc -O2 -shared -fPIC -o alloc_shim.so alloc_shim.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <malloc.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef void *(*malloc_fn)(size_t);
typedef void *(*calloc_fn)(size_t, size_t);
typedef void *(*realloc_fn)(void *, size_t);
typedef void (*free_fn)(void *);
typedef int (*posix_memalign_fn)(void **, size_t, size_t);
typedef void *(*aligned_alloc_fn)(size_t, size_t);
typedef void *(*memalign_fn)(size_t, size_t);
typedef void *(*valloc_fn)(size_t);

static malloc_fn real_malloc;
static calloc_fn real_calloc;
static realloc_fn real_realloc;
static free_fn real_free;
static posix_memalign_fn real_posix_memalign;
static aligned_alloc_fn real_aligned_alloc;
static memalign_fn real_memalign;
static valloc_fn real_valloc;
static malloc_fn real_alloc_cpu;
static free_fn real_free_cpu;

/* dlsym may allocate before the real functions are known: serve those from a static arena. */
static char bootstrap_arena[1 << 16];
static size_t bootstrap_used;
static int resolving;

static int64_t heap_current, heap_peak, tensor_current, tensor_peak, tensor_count;

static void update_peak(int64_t *peak, int64_t value) {
  int64_t seen = __atomic_load_n(peak, __ATOMIC_RELAXED);
  while (value > seen &&
         !__atomic_compare_exchange_n(peak, &seen, value, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
}

static void heap_add(void *p) {
  if (!p) return;
  int64_t now = __atomic_add_fetch(&heap_current, (int64_t)malloc_usable_size(p), __ATOMIC_RELAXED);
  update_peak(&heap_peak, now);
}

static int from_bootstrap(const void *p) {
  return (const char *)p >= bootstrap_arena && (const char *)p < bootstrap_arena + sizeof bootstrap_arena;
}

static void heap_sub(void *p) {
  if (!p || from_bootstrap(p)) return;
  __atomic_sub_fetch(&heap_current, (int64_t)malloc_usable_size(p), __ATOMIC_RELAXED);
}

static void *bootstrap_alloc(size_t n) {
  size_t start = (bootstrap_used + 15) & ~(size_t)15;
  if (start + n > sizeof bootstrap_arena) return NULL;
  bootstrap_used = start + n;
  return bootstrap_arena + start;
}

static void resolve(void) {
  if (real_malloc || resolving) return;
  resolving = 1;
  real_calloc = (calloc_fn)dlsym(RTLD_NEXT, "calloc");
  real_realloc = (realloc_fn)dlsym(RTLD_NEXT, "realloc");
  real_free = (free_fn)dlsym(RTLD_NEXT, "free");
  real_posix_memalign = (posix_memalign_fn)dlsym(RTLD_NEXT, "posix_memalign");
  real_aligned_alloc = (aligned_alloc_fn)dlsym(RTLD_NEXT, "aligned_alloc");
  real_memalign = (memalign_fn)dlsym(RTLD_NEXT, "memalign");
  real_valloc = (valloc_fn)dlsym(RTLD_NEXT, "valloc");
  real_malloc = (malloc_fn)dlsym(RTLD_NEXT, "malloc");
  resolving = 0;
}

void *malloc(size_t n) {
  resolve();
  if (!real_malloc) return bootstrap_alloc(n);
  void *p = real_malloc(n);
  heap_add(p);
  return p;
}

void *calloc(size_t count, size_t n) {
  resolve();
  if (!real_calloc) return bootstrap_alloc(count * n); /* static arena is zeroed */
  void *p = real_calloc(count, n);
  heap_add(p);
  return p;
}

void *realloc(void *old, size_t n) {
  resolve();
  if (from_bootstrap(old)) {
    void *p = malloc(n);
    if (p && old) memcpy(p, old, n); /* bootstrap blocks are tiny and never grown in practice */
    return p;
  }
  heap_sub(old);
  void *p = real_realloc(old, n);
  if (p) heap_add(p);
  else if (old && n) heap_add(old); /* failed realloc leaves the old block alive */
  return p;
}

void free(void *p) {
  if (!p || from_bootstrap(p)) return;
  resolve();
  heap_sub(p);
  real_free(p);
}

int posix_memalign(void **out, size_t alignment, size_t n) {
  resolve();
  int rc = real_posix_memalign(out, alignment, n);
  if (rc == 0) heap_add(*out);
  return rc;
}

void *aligned_alloc(size_t alignment, size_t n) {
  resolve();
  void *p = real_aligned_alloc(alignment, n);
  heap_add(p);
  return p;
}

void *memalign(size_t alignment, size_t n) {
  resolve();
  void *p = real_memalign(alignment, n);
  heap_add(p);
  return p;
}

void *valloc(size_t n) {
  resolve();
  void *p = real_valloc(n);
  heap_add(p);
  return p;
}

/* ---- c10 tensor allocator: pointer -> requested size; linear probing, backward-shift delete ---- */
#define TABLE_BITS 20
#define TABLE_SIZE (1u << TABLE_BITS)
static uintptr_t table_key[TABLE_SIZE];
static size_t table_size[TABLE_SIZE];
static volatile int table_lock;

static void lock(void) { while (__sync_lock_test_and_set(&table_lock, 1)) {} }
static void unlock(void) { __sync_lock_release(&table_lock); }
static size_t slot_of(uintptr_t key) { return (size_t)((key >> 6) * 0x9E3779B97F4A7C15ull >> (64 - TABLE_BITS)); }

static void table_put(uintptr_t key, size_t n) {
  lock();
  size_t i = slot_of(key);
  while (table_key[i] != 0) i = (i + 1) & (TABLE_SIZE - 1);
  table_key[i] = key;
  table_size[i] = n;
  unlock();
}

static size_t table_take(uintptr_t key) {
  size_t n = 0;
  lock();
  size_t i = slot_of(key);
  while (table_key[i] != 0 && table_key[i] != key) i = (i + 1) & (TABLE_SIZE - 1);
  if (table_key[i] == key) {
    n = table_size[i];
    /* backward-shift deletion keeps every probe chain unbroken without tombstones */
    size_t hole = i, j = i;
    for (;;) {
      j = (j + 1) & (TABLE_SIZE - 1);
      if (table_key[j] == 0) break;
      size_t home = slot_of(table_key[j]);
      int movable = (hole <= j) ? (home <= hole || home > j) : (home <= hole && home > j);
      if (movable) {
        table_key[hole] = table_key[j];
        table_size[hole] = table_size[j];
        hole = j;
      }
    }
    table_key[hole] = 0;
  }
  unlock();
  return n;
}

/* libc10 is loaded with RTLD_LOCAL by torch's extension module, so RTLD_NEXT may not see it:
 * look it up by soname (already loaded by the time a tensor is allocated). */
static void *c10_symbol(const char *name) {
  void *p = dlsym(RTLD_NEXT, name);
  if (p) return p;
  static const char *const sonames[] = {"libc10.so", "libc10.so.1.13", "libc10.so.2"};
  for (size_t i = 0; i < sizeof sonames / sizeof *sonames; ++i) {
    void *lib = dlopen(sonames[i], RTLD_LAZY | RTLD_NOLOAD);
    if (lib && (p = dlsym(lib, name))) return p;
  }
  return NULL;
}

/* c10::alloc_cpu(size_t) */
void *_ZN3c109alloc_cpuEm(size_t n) {
  if (!real_alloc_cpu) real_alloc_cpu = (malloc_fn)c10_symbol("_ZN3c109alloc_cpuEm");
  void *p = real_alloc_cpu(n);
  if (p) {
    table_put((uintptr_t)p, n);
    __atomic_add_fetch(&tensor_count, 1, __ATOMIC_RELAXED);
    int64_t now = __atomic_add_fetch(&tensor_current, (int64_t)n, __ATOMIC_RELAXED);
    update_peak(&tensor_peak, now);
  }
  return p;
}

/* c10::free_cpu(void*) */
void _ZN3c108free_cpuEPv(void *p) {
  if (!real_free_cpu) real_free_cpu = (free_fn)c10_symbol("_ZN3c108free_cpuEPv");
  if (p) {
    size_t n = table_take((uintptr_t)p);
    if (n) {
      __atomic_sub_fetch(&tensor_count, 1, __ATOMIC_RELAXED);
      __atomic_sub_fetch(&tensor_current, (int64_t)n, __ATOMIC_RELAXED);
    }
  }
  real_free_cpu(p);
}

int64_t shim_tensor_current(void) { return __atomic_load_n(&tensor_current, __ATOMIC_RELAXED); }
int64_t shim_tensor_peak(void) { return __atomic_load_n(&tensor_peak, __ATOMIC_RELAXED); }
int64_t shim_tensor_count(void) { return __atomic_load_n(&tensor_count, __ATOMIC_RELAXED); }
int64_t shim_heap_current(void) { return __atomic_load_n(&heap_current, __ATOMIC_RELAXED); }
int64_t shim_heap_peak(void) { return __atomic_load_n(&heap_peak, __ATOMIC_RELAXED); }
/* Legacy names from the brief: shim_current/shim_peak report the tensor counter. */
int64_t shim_current(void) { return shim_tensor_current(); }
int64_t shim_peak(void) { return shim_tensor_peak(); }
void shim_reset_tensor_peak(void) { __atomic_store_n(&tensor_peak, shim_tensor_current(), __ATOMIC_RELAXED); }
void shim_reset_peak(void) {
  __atomic_store_n(&tensor_peak, shim_tensor_current(), __ATOMIC_RELAXED);
  __atomic_store_n(&heap_peak, shim_heap_current(), __ATOMIC_RELAXED);
}
