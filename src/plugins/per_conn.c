/*
 * per_conn.c - 插件的每条连接一份的状态（见 per_conn.h）
 */
#include "plugins/per_conn.h"

#include <string.h>

void per_conn_init(struct per_conn *t)
{
	memset(t->e, 0, sizeof(t->e));
	pthread_mutex_init(&t->lock, NULL);
}

int per_conn_put(struct per_conn *t, const struct rdma_conn *conn, void *state)
{
	int rc = -1;

	pthread_mutex_lock(&t->lock);
	for (int k = 0; k < MAX_PARALLEL && rc != 0; k++)
		if (t->e[k].conn == NULL) {
			t->e[k] = (struct per_conn_entry){ conn, state };
			rc = 0;
		}
	pthread_mutex_unlock(&t->lock);
	return rc;
}

void *per_conn_take(struct per_conn *t, const struct rdma_conn *conn)
{
	void *state = NULL;

	pthread_mutex_lock(&t->lock);
	for (int k = 0; k < MAX_PARALLEL && state == NULL; k++)
		if (t->e[k].conn == conn) {
			state = t->e[k].state;
			t->e[k] = (struct per_conn_entry){ NULL, NULL };
		}
	pthread_mutex_unlock(&t->lock);
	return state;
}

void *per_conn_get(struct per_conn *t, const struct rdma_conn *conn)
{
	void *state = NULL;

	pthread_mutex_lock(&t->lock);
	for (int k = 0; k < MAX_PARALLEL && state == NULL; k++)
		if (t->e[k].conn == conn)
			state = t->e[k].state;
	pthread_mutex_unlock(&t->lock);
	return state;
}
