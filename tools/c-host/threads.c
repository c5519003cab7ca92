/*
 * Two point-body trackers on two threads over one shared scene.
 *
 * The main thread loads the scene, creates one tracker per thread and frees
 * its own scene handle at once (the trackers keep the scene data alive). Each
 * thread then runs 2000 updates at 1 kHz of its own query path around body 0:
 * thread 0 orbits the body outside it, thread 1 moves back and forth along a
 * line through it (entering and leaving the solid). Every 25th update is
 * printed with full precision, so the test can compare it with the Rust API.
 *
 * usage: threads SCENE.exs
 * Output lines:
 *   sample thread=T i=I q=x,y,z d=D sd=SD has_sign=S p=x,y,z n=x,y,z feature=K:I
 *   thread=T updates=N ns_per_update=X
 */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <pthread.h>
#include <string.h>
#include <time.h>
#include "common.h"

#define STEPS 2000
#define EVERY 25

typedef struct {
    int id;
    ext_point_tracker *tracker;
    ext_aabb box;
    /* results, printed by the main thread in order */
    ext_vec3 q[STEPS / EVERY];
    ext_closest_point r[STEPS / EVERY];
    double ns_per_update;
    ext_status status;
    char message[256];
} job;

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Query point of thread `id` at time t (s) and its velocity. */
static void path(int id, const ext_aabb *b, double t, ext_vec3 *q, ext_vec3 *v) {
    double cx = 0.5 * (b->min.x + b->max.x), cy = 0.5 * (b->min.y + b->max.y), cz = 0.5 * (b->min.z + b->max.z);
    double ex = 0.5 * (b->max.x - b->min.x), ey = 0.5 * (b->max.y - b->min.y), ez = 0.5 * (b->max.z - b->min.z);
    double w = 2.0 * 3.14159265358979323846 * 0.5; /* 0.5 Hz */
    if (id == 0) {
        q->x = cx + 1.5 * ex * cos(w * t);
        q->y = cy + 1.5 * ey * sin(w * t);
        q->z = cz + 0.5 * ez * sin(3 * w * t);
        v->x = -1.5 * ex * w * sin(w * t);
        v->y = 1.5 * ey * w * cos(w * t);
        v->z = 0.5 * ez * 3 * w * cos(3 * w * t);
    } else {
        q->x = cx + 1.4 * ex * sin(w * t);
        q->y = cy + 0.3 * ey;
        q->z = cz + 0.2 * ez;
        v->x = 1.4 * ex * w * cos(w * t);
        v->y = 0.0;
        v->z = 0.0;
    }
}

static void *run(void *arg) {
    job *j = arg;
    const double dt = 1e-3;
    double t0 = now_ns();
    for (int i = 0; i < STEPS; i++) {
        ext_vec3 q, v;
        path(j->id, &j->box, i * dt, &q, &v);
        ext_closest_point r;
        ext_status st = ext_point_tracker_update(j->tracker, &q, &v, NULL, NULL, dt, &r);
        if (st != EXT_OK) {
            j->status = st;
            ext_last_error_message(j->message, sizeof j->message); /* this thread's message */
            return NULL;
        }
        if (i % EVERY == 0) {
            j->q[i / EVERY] = q;
            j->r[i / EVERY] = r;
        }
    }
    j->ns_per_update = (now_ns() - t0) / STEPS;
    j->status = EXT_OK;
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: %s SCENE.exs\n", argv[0]); return 2; }
    ext_host_check_abi();
    ext_scene *scene = NULL;
    CHECK(ext_scene_load_file(argv[1], &scene));
    static job jobs[2];
    ext_tracker_config cfg;
    CHECK(ext_tracker_config_default(&cfg));
    for (int k = 0; k < 2; k++) {
        jobs[k].id = k;
        CHECK(ext_scene_body_bbox(scene, 0, &jobs[k].box));
        CHECK(ext_point_tracker_new(scene, 0, &cfg, &jobs[k].tracker));
    }
    ext_scene_free(scene); /* the trackers keep the scene data alive */

    pthread_t th[2];
    for (int k = 0; k < 2; k++)
        if (pthread_create(&th[k], NULL, run, &jobs[k]) != 0) { perror("pthread_create"); return 1; }
    for (int k = 0; k < 2; k++) pthread_join(th[k], NULL);

    int failed = 0;
    for (int k = 0; k < 2; k++) {
        job *j = &jobs[k];
        if (j->status != EXT_OK) {
            fprintf(stderr, "thread %d: %s: %s\n", k, ext_status_name(j->status), j->message);
            failed = 1;
            continue;
        }
        for (int s = 0; s < STEPS / EVERY; s++) {
            const ext_vec3 *q = &j->q[s];
            const ext_closest_point *r = &j->r[s];
            printf("sample thread=%d i=%d q=%.17g,%.17g,%.17g d=%.17g sd=%.17g has_sign=%u p=%.17g,%.17g,%.17g "
                   "n=%.17g,%.17g,%.17g feature=%u:%u\n",
                   k, s * EVERY, q->x, q->y, q->z, r->distance, r->signed_distance, r->has_sign, r->point.x,
                   r->point.y, r->point.z, r->normal.x, r->normal.y, r->normal.z, (unsigned)r->feature_kind,
                   r->feature_index);
        }
        printf("thread=%d updates=%d ns_per_update=%.1f\n", k, STEPS, j->ns_per_update);
        ext_point_tracker_free(j->tracker);
    }
    return failed;
}
