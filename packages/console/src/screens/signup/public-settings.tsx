import { useQuery } from '@tanstack/react-query';
import { must } from '../../api/client.js';
import { useServices } from '../../services.js';
import { currentTheme } from '../../ui/theme.js';
import './signup.css';

/**
 * A platform setting the pages before sign-in read (`GET /public-settings/:settingKey`, no session
 * needed): the white label (`appName`, `appLogoLight`, `appLogoDark`) and whether sign-up is open
 * (`userCreation`, `enabled` or `disabled`). The answer is the bare value; an unset logo is `""`.
 */
export function usePublicSetting(key: 'userCreation' | 'appName' | 'appLogoLight' | 'appLogoDark') {
  const { api } = useServices();
  return useQuery({
    queryKey: ['public-settings', key],
    queryFn: () => must(api.GET('/public-settings/{settingKey}', { params: { path: { settingKey: key } } })),
    staleTime: 60_000,
  });
}

/**
 * The platform's logo for the theme shown (the other theme's when only that one is set), named by
 * the platform's name; nothing when no logo was uploaded. The path is the setting's value, under
 * the backend's `/public/`.
 */
export function PlatformLogo() {
  const { config } = useServices();
  const light = usePublicSetting('appLogoLight').data;
  const dark = usePublicSetting('appLogoDark').data;
  const name = usePublicSetting('appName').data;
  const path = currentTheme() === 'dark' ? dark || light : light || dark;
  if (!path) return null;
  return <img className="auth-logo" src={`${config.backendUrl}/public/${path}`} alt={name ?? ''} />;
}
