/* bt2_graph.c - see bt2_graph.h. */
#include "fuzz/ext/bt2_graph.h"

#include <babeltrace2/babeltrace.h>

static const bt_plugin *ctf_plugin, *utils_plugin;
static const bt_component_class_source *fs_class;
static const bt_component_class_filter *muxer_class;

static bt_graph_simple_sink_component_consume_func_status consume(bt_message_iterator *it,
                                                                  void *data)
{
	bt_message_array_const msgs;
	uint64_t n;
	uint64_t *events = data;

	switch (bt_message_iterator_next(it, &msgs, &n)) {
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK:
		break;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_END:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_END;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_AGAIN;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_MEMORY_ERROR:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_MEMORY_ERROR;
	default:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_ERROR;
	}
	for (uint64_t i = 0; i < n; i++) {
		if (bt_message_get_type(msgs[i]) == BT_MESSAGE_TYPE_EVENT)
			(*events)++;
		bt_message_put_ref(msgs[i]);
	}
	return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_OK;
}

int bt2_graph_init(void)
{
	if (fs_class && muxer_class)
		return 0;
	bt_logging_set_global_level(BT_LOGGING_LEVEL_NONE);
	/* $BABELTRACE_PLUGIN_PATH, the system's plugin directory, then the
	 * plugins linked in; not ~/.local: a harness reads what it was built
	 * against. */
	if (!ctf_plugin &&
	    bt_plugin_find("ctf", BT_TRUE, BT_FALSE, BT_TRUE, BT_TRUE, BT_FALSE, &ctf_plugin) !=
	    BT_PLUGIN_FIND_STATUS_OK)
		goto fail;
	if (!utils_plugin &&
	    bt_plugin_find("utils", BT_TRUE, BT_FALSE, BT_TRUE, BT_TRUE, BT_FALSE, &utils_plugin) !=
	    BT_PLUGIN_FIND_STATUS_OK)
		goto fail;
	fs_class = bt_plugin_borrow_source_component_class_by_name_const(ctf_plugin, "fs");
	muxer_class = bt_plugin_borrow_filter_component_class_by_name_const(utils_plugin, "muxer");
	if (fs_class && muxer_class)
		return 0;
fail:
	bt_current_thread_clear_error();
	return -1;
}

/* Every stream's port into the muxer (it grows a free input port as each
 * is connected), the muxer into the sink. */
static int connect_all(bt_graph *g, const bt_component_source *src,
                       const bt_component_filter *mux, const bt_component_sink *sink)
{
	for (uint64_t i = 0; i < bt_component_source_get_output_port_count(src); i++)
		if (bt_graph_connect_ports(g, bt_component_source_borrow_output_port_by_index_const(src, i),
		                           bt_component_filter_borrow_input_port_by_index_const(mux, i),
		                           NULL) != BT_GRAPH_CONNECT_PORTS_STATUS_OK)
			return -1;
	return bt_graph_connect_ports(g, bt_component_filter_borrow_output_port_by_name_const(mux, "out"),
	                              bt_component_sink_borrow_input_port_by_name_const(sink, "in"),
	                              NULL) == BT_GRAPH_CONNECT_PORTS_STATUS_OK ? 0 : -1;
}

int bt2_read_trace(const char *dir, uint64_t *events)
{
	const bt_component_source *src;
	const bt_component_filter *mux;
	const bt_component_sink *sink;
	bt_graph *g = NULL;
	bt_value *params = NULL, *inputs = NULL;
	bt_graph_run_status st;
	int rc = -1;

	if (bt2_graph_init() != 0)
		return -1;
	if (!(g = bt_graph_create(0)) || !(params = bt_value_map_create()) ||
	    bt_value_map_insert_empty_array_entry(params, "inputs", &inputs) != BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK ||
	    bt_value_array_append_string_element(inputs, dir) != BT_VALUE_ARRAY_APPEND_ELEMENT_STATUS_OK)
		goto out;
	if (bt_graph_add_source_component(g, fs_class, "src", params, BT_LOGGING_LEVEL_NONE, &src) !=
	    BT_GRAPH_ADD_COMPONENT_STATUS_OK ||
	    bt_graph_add_filter_component(g, muxer_class, "mux", NULL, BT_LOGGING_LEVEL_NONE, &mux) !=
	    BT_GRAPH_ADD_COMPONENT_STATUS_OK ||
	    bt_graph_add_simple_sink_component(g, "sink", NULL, consume, NULL, events, &sink) !=
	    BT_GRAPH_ADD_COMPONENT_STATUS_OK)
		goto out;
	if (connect_all(g, src, mux, sink) != 0)
		goto out;
	while ((st = bt_graph_run(g)) == BT_GRAPH_RUN_STATUS_AGAIN)
		;
	rc = st == BT_GRAPH_RUN_STATUS_OK ? 0 : -1;
out:
	bt_current_thread_clear_error();
	bt_value_put_ref(params);
	bt_graph_put_ref(g);
	return rc;
}
