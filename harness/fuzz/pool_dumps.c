/* pool_dumps.c - json_dumps for the fuzz targets that use the jansson pool
 * (alloc_pool.h): linked with -Wl,--wrap=json_dumps, so the string it
 * returns comes from malloc, as every caller frees it with free(). */
#include <jansson.h>
#include "alloc_pool.h"

char *__real_json_dumps(const json_t *json, size_t flags);
char *__wrap_json_dumps(const json_t *json, size_t flags);

char *__wrap_json_dumps(const json_t *json, size_t flags)
{
    bool was = mf_alloc_pool_resume(false);
    char *s = __real_json_dumps(json, flags);
    mf_alloc_pool_resume(was);
    return s;
}
