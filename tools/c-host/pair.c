/*
 * A body-body tracker from C: the minimum distance between two bodies of one
 * scene while body B slides over body A and turns about its own centre.
 *
 * Body A stays where the file put it (pose NULL); body B's pose relative to
 * its placement is given as a row-major 4x4 matrix with its exact twist,
 * 400 updates at 1 kHz. The same poses go through ext_pair_tracker_update
 * (matrices) and ext_pair_tracker_update_pose (position + quaternion, from
 * ext_pose_from_matrix) on a second tracker, and every 40th step through the
 * cold query ext_pair_distance; the three must agree. Then every error path
 * of the pair functions is exercised.
 *
 * usage: pair SCENE.exs [BODY_A BODY_B]     (default bodies 0 and 1)
 * Output lines:
 *   step i=I t=T m=m0,...,m15 w=x,y,z v=x,y,z d=D sd=SD pen=P pa=x,y,z pb=x,y,z n=x,y,z fa=K:I fb=K:I
 *   cold i=I d=D sd=SD pa=x,y,z pb=x,y,z
 *   pair updates=N min_d=D max_d=D max_variant_diff=X ns_per_update=X
 *   expected EXT_...: message
 *   done
 */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <string.h>
#include <time.h>
#include "common.h"

#define STEPS 400
#define COLD_EVERY 40
#define PI 3.14159265358979323846

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static const char *kind(ext_feature_kind k) {
    switch (k) {
    case EXT_FEATURE_PIECE: return "piece";
    case EXT_FEATURE_EDGE: return "edge";
    default: return "vertex";
    }
}

static ext_vec3 cross(ext_vec3 a, ext_vec3 b) {
    ext_vec3 c = {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
    return c;
}

/* B's motion at time t: rotation by theta about the axis `axis` through B's
 * box centre `c`, then the translation `s`; as a row-major matrix and twist. */
static void motion(double t, ext_vec3 c, ext_vec3 axis, ext_vec3 side, double scale, double m[16], ext_twist *tw) {
    double w = 2.0 * PI; /* one period per second */
    double th = 0.3 * sin(w * t), dth = 0.3 * w * cos(w * t);
    /* slide sideways and lift away from A (never towards it) */
    double a = 0.2 * scale * sin(w * t), da = 0.2 * scale * w * cos(w * t);
    double l = 0.1 * scale * sin(0.5 * w * t) * sin(0.5 * w * t), dl = 0.1 * scale * 0.5 * w * sin(w * t);
    ext_vec3 s = {a * side.x + l * axis.x, a * side.y + l * axis.y, a * side.z + l * axis.z};
    ext_vec3 ds = {da * side.x + dl * axis.x, da * side.y + dl * axis.y, da * side.z + dl * axis.z};
    /* Rodrigues rotation matrix about the unit axis */
    double x = axis.x, y = axis.y, z = axis.z, co = cos(th), si = sin(th), k = 1.0 - co;
    double r[9] = {co + x * x * k,     x * y * k - z * si, x * z * k + y * si,
                   y * x * k + z * si, co + y * y * k,     y * z * k - x * si,
                   z * x * k - y * si, z * y * k + x * si, co + z * z * k};
    ext_vec3 rc = {r[0] * c.x + r[1] * c.y + r[2] * c.z, r[3] * c.x + r[4] * c.y + r[5] * c.z,
                   r[6] * c.x + r[7] * c.y + r[8] * c.z};
    /* x_world = R (x - c) + c + s: translation c + s - R c */
    for (int i = 0; i < 3; i++) {
        m[i * 4 + 0] = r[i * 3 + 0];
        m[i * 4 + 1] = r[i * 3 + 1];
        m[i * 4 + 2] = r[i * 3 + 2];
    }
    m[3] = c.x + s.x - rc.x;
    m[7] = c.y + s.y - rc.y;
    m[11] = c.z + s.z - rc.z;
    m[12] = m[13] = m[14] = 0.0;
    m[15] = 1.0;
    /* twist: omega = theta' axis; the pose origin moves with s' - omega x (R c) */
    tw->angular.x = dth * axis.x;
    tw->angular.y = dth * axis.y;
    tw->angular.z = dth * axis.z;
    ext_vec3 wrc = cross(tw->angular, rc);
    tw->linear.x = ds.x - wrc.x;
    tw->linear.y = ds.y - wrc.y;
    tw->linear.z = ds.z - wrc.z;
}

static double diff(const ext_pair_result *a, const ext_pair_result *b) {
    double d = fabs(a->distance - b->distance);
    d = fmax(d, fabs(a->point_a.x - b->point_a.x) + fabs(a->point_a.y - b->point_a.y) + fabs(a->point_a.z - b->point_a.z));
    d = fmax(d, fabs(a->point_b.x - b->point_b.x) + fabs(a->point_b.y - b->point_b.y) + fabs(a->point_b.z - b->point_b.z));
    return d;
}

int main(int argc, char **argv) {
    if (argc != 2 && argc != 4) { fprintf(stderr, "usage: %s SCENE.exs [BODY_A BODY_B]\n", argv[0]); return 2; }
    ext_host_check_abi();
    unsigned body_a = argc == 4 ? (unsigned)atoi(argv[2]) : 0, body_b = argc == 4 ? (unsigned)atoi(argv[3]) : 1;
    ext_scene *scene = NULL;
    CHECK(ext_scene_load_file(argv[1], &scene));
    ext_aabb ba, bb;
    CHECK(ext_scene_body_bbox(scene, body_a, &ba));
    CHECK(ext_scene_body_bbox(scene, body_b, &bb));
    ext_vec3 ca = {0.5 * (ba.min.x + ba.max.x), 0.5 * (ba.min.y + ba.max.y), 0.5 * (ba.min.z + ba.max.z)};
    ext_vec3 cb = {0.5 * (bb.min.x + bb.max.x), 0.5 * (bb.min.y + bb.max.y), 0.5 * (bb.min.z + bb.max.z)};
    /* B turns about and lifts along the axis from A's box centre to B's;
     * it slides along the box's longest direction perpendicular to it */
    ext_vec3 axis = {cb.x - ca.x, cb.y - ca.y, cb.z - ca.z};
    double n = sqrt(axis.x * axis.x + axis.y * axis.y + axis.z * axis.z);
    if (n < 1e-9) { fprintf(stderr, "error: bodies share their box centre\n"); return 1; }
    axis.x /= n; axis.y /= n; axis.z /= n;
    ext_vec3 ex = {1, 0, 0}, ey = {0, 1, 0};
    ext_vec3 side = cross(axis, fabs(axis.x) < 0.9 ? ex : ey);
    double sn = sqrt(side.x * side.x + side.y * side.y + side.z * side.z);
    side.x /= sn; side.y /= sn; side.z /= sn;
    double scale = fmin(bb.max.x - bb.min.x, fmin(bb.max.y - bb.min.y, bb.max.z - bb.min.z));
    if (scale <= 0) scale = 1.0;

    ext_pair_tracker *tm = NULL, *tp = NULL;
    CHECK(ext_pair_tracker_new(scene, body_a, scene, body_b, NULL, &tm));
    ext_tracker_config cfg;
    CHECK(ext_tracker_config_default(&cfg));
    CHECK(ext_pair_tracker_new(scene, body_a, scene, body_b, &cfg, &tp));

    const double dt = 1e-3;
    double min_d = INFINITY, max_d = -INFINITY, max_diff = 0.0, ns = 0.0;
    for (int i = 0; i < STEPS; i++) {
        double t = i * dt, m[16];
        ext_twist tw;
        motion(t, cb, axis, side, scale, m, &tw);
        ext_pair_result r, rp;
        double t0 = now_ns();
        CHECK(ext_pair_tracker_update(tm, NULL, m, NULL, &tw, i == 0 ? 0.0 : dt, &r));
        ns += now_ns() - t0;
        ext_pose pose;
        CHECK(ext_pose_from_matrix(m, 0, &pose));
        CHECK(ext_pair_tracker_update_pose(tp, NULL, &pose, NULL, &tw, i == 0 ? 0.0 : dt, &rp));
        max_diff = fmax(max_diff, diff(&r, &rp));
        min_d = fmin(min_d, r.signed_distance);
        max_d = fmax(max_d, r.signed_distance);
        printf("step i=%d t=%.17g m=", i, t);
        for (int k = 0; k < 16; k++) printf("%.17g%s", m[k], k < 15 ? "," : "");
        printf(" w=%.17g,%.17g,%.17g v=%.17g,%.17g,%.17g", tw.angular.x, tw.angular.y, tw.angular.z, tw.linear.x,
               tw.linear.y, tw.linear.z);
        printf(" d=%.17g sd=%.17g pen=%u pa=%.17g,%.17g,%.17g pb=%.17g,%.17g,%.17g n=%.17g,%.17g,%.17g fa=%s:%u fb=%s:%u\n",
               r.distance, r.signed_distance, r.penetrating, r.point_a.x, r.point_a.y, r.point_a.z, r.point_b.x,
               r.point_b.y, r.point_b.z, r.normal.x, r.normal.y, r.normal.z, kind(r.feature_kind_a), r.feature_index_a,
               kind(r.feature_kind_b), r.feature_index_b);
        if (i % COLD_EVERY == 0) {
            ext_pair_result c;
            CHECK(ext_pair_distance(scene, body_a, NULL, scene, body_b, &pose, &c));
            printf("cold i=%d d=%.17g sd=%.17g pa=%.17g,%.17g,%.17g pb=%.17g,%.17g,%.17g\n", i, c.distance,
                   c.signed_distance, c.point_a.x, c.point_a.y, c.point_a.z, c.point_b.x, c.point_b.y, c.point_b.z);
        }
    }
    printf("pair updates=%d min_d=%.9f max_d=%.9f max_variant_diff=%.3g ns_per_update=%.0f\n", STEPS, min_d, max_d,
           max_diff, ns / STEPS);

    /* error paths: nothing is written, the tracker stays usable */
    ext_pair_result r;
    memset(&r, 0, sizeof r);
    double m[16];
    ext_twist tw;
    motion(0.0, cb, axis, side, scale, m, &tw);
    EXPECT_STATUS(ext_pair_tracker_update(tm, NULL, m, NULL, NULL, 1e-3, NULL), EXT_NULL_POINTER);
    EXPECT_STATUS(ext_pair_tracker_update(NULL, NULL, m, NULL, NULL, 1e-3, &r), EXT_NULL_POINTER);
    EXPECT_STATUS(ext_pair_tracker_update(tm, NULL, m, NULL, NULL, NAN, &r), EXT_INVALID_ARGUMENT);
    double bad[16];
    memcpy(bad, m, sizeof bad);
    bad[0] *= 2.0; /* a scaled axis: not rigid */
    EXPECT_STATUS(ext_pair_tracker_update(tm, NULL, bad, NULL, NULL, 1e-3, &r), EXT_INVALID_ARGUMENT);
    memcpy(bad, m, sizeof bad);
    bad[7] = NAN;
    EXPECT_STATUS(ext_pair_tracker_update(tm, bad, NULL, NULL, NULL, 1e-3, &r), EXT_INVALID_ARGUMENT);
    ext_twist nan_twist = tw;
    nan_twist.angular.y = NAN;
    EXPECT_STATUS(ext_pair_tracker_update(tm, NULL, m, NULL, &nan_twist, 1e-3, &r), EXT_INVALID_ARGUMENT);
    ext_pose skew = {{0, 0, 0}, {2, 0, 0, 0}};
    EXPECT_STATUS(ext_pair_tracker_update_pose(tp, NULL, &skew, NULL, NULL, 1e-3, &r), EXT_INVALID_ARGUMENT);
    EXPECT_STATUS(ext_pair_distance(scene, body_a, NULL, scene, 999, NULL, &r), EXT_NO_SUCH_BODY);
    EXPECT_STATUS(ext_pair_distance(scene, body_a, NULL, NULL, body_b, NULL, &r), EXT_NULL_POINTER);
    ext_pair_tracker *none = NULL;
    EXPECT_STATUS(ext_pair_tracker_new(scene, 999, scene, body_b, NULL, &none), EXT_NO_SUCH_BODY);
    ext_tracker_config badcfg = cfg;
    badcfg.gain_k = -1.0;
    EXPECT_STATUS(ext_pair_tracker_set_config(tm, &badcfg), EXT_INVALID_ARGUMENT);
    if (none != NULL || r.distance != 0.0) { fprintf(stderr, "error: an output was written on failure\n"); return 1; }
    /* still usable, and a reset makes the next update a cold start equal to the cold query */
    CHECK(ext_pair_tracker_set_config(tm, &cfg));
    CHECK(ext_pair_tracker_reset(tm));
    ext_pair_result again, cold;
    CHECK(ext_pair_tracker_update(tm, NULL, m, NULL, NULL, 0.0, &again));
    ext_pose pose;
    CHECK(ext_pose_from_matrix(m, 0, &pose));
    CHECK(ext_pair_distance(scene, body_a, NULL, scene, body_b, &pose, &cold));
    printf("reset d=%.17g cold=%.17g\n", again.distance, cold.distance);

    ext_pair_tracker_free(tm);
    ext_pair_tracker_free(tp);
    ext_pair_tracker_free(NULL);
    ext_scene_free(scene);
    printf("done\n");
    return 0;
}
