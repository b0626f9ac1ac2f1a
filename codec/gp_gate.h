/* Waiting for another thread's progress without burning a core: a short spin (the wait is
 * usually a few hundred cycles: the thread ahead only copies), then sleep on a condition variable
 * until whoever makes progress opens the gate. The one who opens it takes the lock only when
 * someone sleeps, so that progress nobody waits for costs one atomic load. When every core is
 * busy (a whole php-fpm pool opening at once), sleeping waiters leave the cores to the threads
 * they wait for; sched_yield() would not. */
#ifndef GP_GATE_H
#define GP_GATE_H

#include <pthread.h>
#include <stdatomic.h>

#if defined(__x86_64__) || defined(__i386__)
#define GP_GATE_RELAX() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define GP_GATE_RELAX() __asm__ __volatile__("yield")
#else
#define GP_GATE_RELAX() ((void)0)
#endif

/* Pauses before a waiter sleeps: enough for a copy ahead to finish, short beside a sleep. */
#define GP_GATE_SPINS 256

typedef struct gp_gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	atomic_uint sleepers;
} gp_gate;

static inline void gp_gate_init(gp_gate *g)
{
	pthread_mutex_init(&g->lock, NULL);
	pthread_cond_init(&g->cond, NULL);
	atomic_init(&g->sleepers, 0);
}

static inline void gp_gate_destroy(gp_gate *g)
{
	pthread_cond_destroy(&g->cond);
	pthread_mutex_destroy(&g->lock);
}

/* After the progress is published (a sequentially consistent store or read-modify-write):
 * wakes the sleepers. A waiter either sees the progress before it sleeps, or is counted here
 * (both orders are sequentially consistent) and woken under the lock it checks under. */
static inline void gp_gate_open(gp_gate *g)
{
	if (atomic_load(&g->sleepers) == 0) return;
	pthread_mutex_lock(&g->lock);
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

/* Returns once ready(arg) is true; ready reads what the opener publishes. */
static inline void gp_gate_wait(gp_gate *g, int (*ready)(void *arg), void *arg)
{
	for (int i = 0; i < GP_GATE_SPINS; i++) {
		if (ready(arg)) return;
		GP_GATE_RELAX();
	}
	atomic_fetch_add(&g->sleepers, 1);
	pthread_mutex_lock(&g->lock);
	while (!ready(arg)) pthread_cond_wait(&g->cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
	atomic_fetch_sub(&g->sleepers, 1);
}

#endif
