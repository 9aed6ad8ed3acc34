import { createApp } from 'vue';
import App from './App.vue';

const config = await (await fetch('/config.json')).json();
createApp(App, { config }).mount('#app');
