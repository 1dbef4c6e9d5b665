/*
** api.h: the declarations of public functions as Lua values, and the
** binder that applies them (API.md §0). One rule for every call:
** positional arguments, then a trailing options table for any optional
** parameter, by its NumPy/SciPy name; unknown keys, wrong types and
** surplus arguments raise naming the public function; an error raised by
** whatever the function calls is renamed to the function the user called.
*/
#ifndef GA_API_H
#define GA_API_H

#include "core/core.h"
#include "core/decl.h"

/* A declaration as a Lua value (userdata "gpuarray.decl") */
typedef struct {
  ga_decl d;
} ga_apidecl;

/* The declaration at idx, or raise naming fname */
const ga_decl *ga_api_checkdecl(lua_State *L, int idx, const char *fname);

/* Apply d to the arguments at stack slots [base, top]: push the value of
** every parameter in declaration order (a default where none was given;
** nil for an optional one without default), then the `...` values, and
** return how many were pushed. The arguments stay where they were. Errors
** name fname (d->fname when NULL). */
int ga_api_bind(lua_State *L, const ga_decl *d, const char *fname, int base, int top);
/* The same, given the state's ndarray metatable (ga_state's array_mt, or
** NULL): a C closure of the module has it without a registry read */
int ga_api_bind_in(lua_State *L, const ga_decl *d, const char *fname, int base, int top, const void *array_mt);

/* Whether the value at idx is an options table: a plain table (no
** metatable) whose keys are all strings, or an empty one */
int ga_api_is_options(lua_State *L, int idx);

/* Raise "gpuarray: <fname>: unknown option '<key>'" with the nearest
** declared name suggested, for every key of the options table at idx that
** d does not declare (hot C paths that read their options themselves) */
void ga_api_check_options(lua_State *L, int idx, const ga_decl *d, const char *fname);

/* The registry key of the table of object types by name: checker functions
** set by core.api.set_type */
extern const char ga_api_types_key;

void ga_open_api(lua_State *L);   /* core.api */

#endif
