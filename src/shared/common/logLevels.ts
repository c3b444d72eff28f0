/** Maps MCP (RFC 5424 syslog) log levels onto the five levels of a VS Code log channel. */
export type McpLogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';
export type ChannelLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

export const MCP_LOG_LEVELS: readonly McpLogLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

export function channelLevelFor(level: string): ChannelLevel {
  switch (level) {
    case 'debug':
      return 'debug';
    case 'info':
    case 'notice':
      return 'info';
    case 'warning':
      return 'warn';
    case 'error':
    case 'critical':
    case 'alert':
    case 'emergency':
      return 'error';
    default:
      return 'info';
  }
}

/** Text of a `notifications/message` payload: strings as they are, anything else as JSON. */
export function formatLogData(logger: string | undefined, data: unknown): string {
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  return logger ? `[${logger}] ${text}` : text;
}
