/* cabledyn C API: a deck's mooring system driven by a host code.
 *
 * The pattern of mooring host coupling (create from a deck; the number of coupled DOFs;
 * init with the coupled positions and velocities, which solves the statics; step to t + dt
 * with the coupled states, returning the forces of the lines on the coupled points; queries;
 * save and load of the full state; close), around the header-only C++ library
 * (cabledyn::io::SystemSimulation). Coupled DOFs are 3 per Coupled / Vessel point of the
 * deck's POINTS, in their order: x, y, z of the first such point, then the next.
 *
 * Every call returns a status (CABLEDYN_OK or an error code) and never lets a C++ exception
 * cross the C boundary. cabledyn_last_error() gives the message of the last failed call on a
 * handle (or of the last failed cabledyn_create when given NULL): it names the object, the
 * value and the limit. Units are SI. Not thread-safe per handle; separate handles are
 * independent.
 */
#ifndef CABLEDYN_C_H
#define CABLEDYN_C_H

#ifdef __cplusplus
extern "C" {
#endif

/* Exported symbols of the shared library. */
#if defined(CABLEDYN_C_BUILDING) && (defined(__GNUC__) || defined(__clang__))
#define CABLEDYN_C_API __attribute__((visibility("default")))
#else
#define CABLEDYN_C_API
#endif

/* Status codes. */
#define CABLEDYN_OK 0
#define CABLEDYN_INPUT_ERROR 1       /* bad input: deck, argument, state file */
#define CABLEDYN_SOLVE_ERROR 2       /* a solver failed; the committed state is unchanged */
#define CABLEDYN_NOT_IMPLEMENTED 3   /* valid input asking for a feature not implemented yet */
#define CABLEDYN_ERROR 4             /* any other failure (out of memory, ...) */

typedef struct cabledyn_system cabledyn_system;

/* Reads the deck at deck_path and builds its system; *out receives the handle (NULL on
 * failure). */
CABLEDYN_C_API int cabledyn_create(const char* deck_path, cabledyn_system** out);
/* Number of coupled DOFs, in MoorDyn's order of coupled objects: 6 per Coupled / Vessel /
 * CoupledPinned body (x y z of its reference point, roll pitch yaw [rad] of R = Rx Ry Rz, or
 * of R = Rz Ry Rx with the deck option bodyAngles orcaflex;
 * velocities: the reference point's and the angular velocity in world axes; loads: force and
 * moment about the reference point; a CoupledPinned body ignores its angles and returns zero
 * moments), in BODIES order; then 6 per Coupled / Vessel rod (End A and the angles of its axes,
 * z along the rod) and 3 per CoupledPinned rod (End A), in RODS order; then 3 per Coupled /
 * Vessel / Turbine<J> point (x y z), in POINTS order by turbine (Coupled and Vessel points are
 * turbine 1's, as in MoorDyn-F). */
CABLEDYN_C_API int cabledyn_coupled_dofs(const cabledyn_system* s, int* n);
/* Number of coupled points and of coupled bodies and rods (their entries: cabledyn_coupled_dofs). */
CABLEDYN_C_API int cabledyn_coupled_objects(const cabledyn_system* s, int* points, int* bodies);
/* The coupled DOFs where the deck puts them (n values, the layout of cabledyn_coupled_dofs). */
CABLEDYN_C_API int cabledyn_coupled_deck_positions(const cabledyn_system* s, double* x);
/* Statics with the coupled points at x (n values) moving with v (n values). */
CABLEDYN_C_API int cabledyn_init(cabledyn_system* s, const double* x, const double* v);
/* Steps from *t (the committed time) to *t + dt with the coupled objects at x, v at *t + dt;
 * writes their loads on the host into f (n values: per coupled body its lines' and its own
 * loads less its inertia, force and moment about its reference point, a CoupledPinned body's
 * moment zero; per coupled point its lines' force) and advances *t. */
CABLEDYN_C_API int cabledyn_step(cabledyn_system* s, const double* x, const double* v, double* f, double* t, double dt);
/* Position [m] and net line force [N] of the point with deck ID id. */
CABLEDYN_C_API int cabledyn_point_position(const cabledyn_system* s, int id, double r[3]);
CABLEDYN_C_API int cabledyn_point_force(const cabledyn_system* s, int id, double f[3]);
/* Body `id` (deck ID): position of its reference point [m] and roll pitch yaw [rad] (the
 * deck's bodyAngles convention); the
 * load of its lines about the reference point (force [N], moment [N m]); a coupled body's
 * load on the host (its lines' and its own loads less its inertia, as cabledyn_step). */
CABLEDYN_C_API int cabledyn_body_pose(const cabledyn_system* s, int id, double r6[6]);
CABLEDYN_C_API int cabledyn_body_load(const cabledyn_system* s, int id, double f6[6]);
/* Force [N] line `id` exerts on the point at its End A (end 0) or End B (end 1). */
CABLEDYN_C_API int cabledyn_line_end_force(const cabledyn_system* s, int id, int end, double f[3]);
/* Number of nodes of line `id` (its elements + 1); position [m] and tangent dr/ds of its
 * node i (0 at End A; a finite-EI line's tangent DOF, an EI = 0 line's mean chord direction
 * over the unstretched lengths; t may be NULL). */
CABLEDYN_C_API int cabledyn_line_nodes(const cabledyn_system* s, int id, int* n);
CABLEDYN_C_API int cabledyn_line_node_position(const cabledyn_system* s, int id, int i, double r[3], double t[3]);
/* Writes / reads everything committed (a load continues bit for bit). */
CABLEDYN_C_API int cabledyn_save(const cabledyn_system* s, const char* path);
CABLEDYN_C_API int cabledyn_load(cabledyn_system* s, const char* path);
/* Notes on the deck as a host runs it: the reader's (options accepted and ignored, MoorDyn's
 * defaults taken), the solver options the system route does not apply, the deck's
 * prescribed motion (motionFile, fairleadMotion, vesselRef), which does not apply: the host
 * moves the coupled objects, and its nModes (the driver writes the modes). *n receives their number; cabledyn_note gives note i (0-based)
 * in *text, valid until cabledyn_close. */
CABLEDYN_C_API int cabledyn_note_count(const cabledyn_system* s, int* n);
CABLEDYN_C_API int cabledyn_note(const cabledyn_system* s, int i, const char** text);
/* The message of the last failed call on s (NULL: of the last failed cabledyn_create). */
CABLEDYN_C_API const char* cabledyn_last_error(const cabledyn_system* s);
/* Frees the handle (NULL is accepted). */
CABLEDYN_C_API int cabledyn_close(cabledyn_system* s);

#ifdef __cplusplus
}
#endif

#endif /* CABLEDYN_C_H */
